"""The admin base for rows that change only through the services (or never): staff may look,
nobody adds, changes or deletes them in the admin."""
from django.contrib import admin


class ViewOnlyAdmin(admin.ModelAdmin):
    """Staff can look; nobody adds, changes or deletes here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
