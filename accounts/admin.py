from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class RedCaptainUserAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("Red Captain", {"fields": ("display_name",)}))  # type: ignore[misc]
    list_display = ("username", "display_name", "email", "is_staff", "is_active")
