"""Forms for accounts: registration through a campaign invitation."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class InvitationRegistrationForm(UserCreationForm[User]):
    """Sign-up for someone arriving with an invitation link. It only validates: the account is created by
    campaign.services.user_register_with_invitation, together with the membership, in one transaction."""

    email = forms.EmailField(
        label="Email address",
        help_text="Used only to send you a password reset link.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    display_name = forms.CharField(
        label="Name shown to other players",
        max_length=80,
        required=False,
        help_text="For example “Captain Ada Blackwood”. Leave empty to use your user name.",
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")
