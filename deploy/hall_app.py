"""The app as deploy/serve.py serves it: app.py under Streamlit's ASGI ``st.App``, with the
hall's version route beside it (``hall/version_route.py``).

``streamlit run deploy/hall_app.py`` serves exactly what ``streamlit run app.py`` serves,
plus ``GET /hall/version``: a student's page then waits on that route for the hall's
version (the route holds the request until the lecturer moves) and reruns only when the
lecturer moved, instead of running a Streamlit timer every second
(``pages/common/hall_watch.py``). Without this entry (``streamlit run
app.py`` alone) the pages keep their timers.
"""

import os
from pathlib import Path

import streamlit as st

from hall.version_route import PATH, ROUTES, WATCH_ENV

ROOT = Path(__file__).resolve().parents[1]

# the pages run in this process: they read it to choose the route over their timers
os.environ[WATCH_ENV] = PATH

app = st.App(str(ROOT / "app.py"), routes=ROUTES)
