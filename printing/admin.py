"""The print jobs in the admin: view-only for every active staff member, who may also delete one (its PDF
goes with it, ``printing.upkeep``)."""
from django.contrib import admin

from scoring.admin import ReadOnlyAdmin

from .models import PrintJob


@admin.register(PrintJob)
class PrintJobAdmin(ReadOnlyAdmin):
    list_display = ["id", "tournament", "round", "kind", "status", "done", "total", "attempts", "created_by",
                    "created_at", "finished_at"]
    list_filter = ["status", "kind", "tournament"]
    readonly_fields = ["error"]

    def has_delete_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff
