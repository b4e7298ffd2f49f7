from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class RedCaptainUserAdmin(UserAdmin[User]):
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Red Captain", {"fields": ("display_name",)}))
    list_display = ("username", "display_name", "email", "is_staff", "is_active")
