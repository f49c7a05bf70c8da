from __future__ import annotations

from django import forms


class SearchForm(forms.Form):
    q = forms.CharField(
        label="Search the cards",
        required=False,
        max_length=200,
        error_messages={
            "max_length": "A search holds at most %(limit_value)d characters; this one has %(show_value)d."
        },
    )
    # From a deck page's box: that deck's cards only.
    deck = forms.SlugField(required=False)
