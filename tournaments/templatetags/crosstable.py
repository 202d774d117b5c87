"""``{% crosstable_links tournament %}``: the links to the crosstable of each Swiss stage
(``tournaments.crosstable``), for the standings page. Reads the stages the page already read
(``pages.stage_of`` keeps them on the tournament), else one query."""
from django import template
from django.urls import reverse

from ..models import Stage

register = template.Library()


@register.inclusion_tag("tournaments/_crosstable_links.html")
def crosstable_links(tournament):
    stages = getattr(tournament, "stage_list", None)
    if stages is None:
        stages = list(Stage.objects.filter(tournament=tournament).order_by("position"))
    swiss = [st for st in stages if st.format == Stage.Format.SWISS]
    return {"links": [(st.display_name, reverse("tournaments:crosstable",
                                                kwargs={"slug": tournament.slug, "position": st.position}))
                      for st in swiss], "several": len(stages) > 1}
