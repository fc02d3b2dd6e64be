"""A lecture hall session: the lecturer drives, students' pages follow and answer polls.

Below the pages, above the views: no Streamlit here. ``hall.store`` (the interface and the
in-process store), ``hall.redis_store`` (Redis, for several processes), ``hall.polls`` (what a
poll accepts), ``hall.session`` (the rules: keys, polls, reveal, presence, export),
``hall.export`` (CSV and the session file the app replays), ``hall.config`` (which store a
process uses).
"""
