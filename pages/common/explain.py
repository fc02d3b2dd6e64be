"""The "What am I looking at?" box under a figure: the lines of a ``views.explain`` function."""

import streamlit as st

from pages.common.text import literal

LABEL = "What am I looking at?"


def explain_box(lines, *, label: str = LABEL, expanded: bool = False) -> None:
    """The plain-text ``lines`` as a bulleted list in a closed expander (shown literally:
    method names and formulas are text, never Markdown)."""
    with st.expander(label, expanded=expanded):
        st.markdown("\n".join(f"- {literal(line)}" for line in lines))


def verdict_box(lines) -> None:
    """The verdict sentences as a short bulleted list, always shown."""
    st.markdown("**Verdict on this run**\n\n" + "\n".join(f"- {literal(line)}" for line in lines))
