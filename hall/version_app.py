"""The hall's version route alone, as its own small ASGI app: ``uvicorn hall.version_app:app``.

``deploy/serve.py`` runs it beside the Streamlit processes and HAProxy sends it every
``GET /hall/version``: each student's page holds one request here, and the answers to them
all when the lecturer moves are not taken from the Streamlit processes, busy with the runs
of the pages that follow the move.
"""

from starlette.applications import Starlette

from hall.version_route import ROUTES

app = Starlette(routes=ROUTES)
