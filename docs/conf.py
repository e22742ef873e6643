"""The course's static site: Sphinx + MyST-NB, built from the repository root with this folder as configuration.

    python -m sphinx -b html -c docs . _site

The lessons are rendered from their committed outputs (nothing is executed), so the site shows exactly the
charts and boards the notebooks carry, and reads on a phone with nothing installed.  tests/test_site.py builds it.
"""

project = "amoeboid_edu"
author = "amoeboid_edu developers"
copyright = "2026, amoeboid_edu developers (code: MIT; lesson texts: CC BY 4.0)"
extensions = ["myst_nb", "sphinx.ext.autodoc"]
root_doc = "docs/index"
include_patterns = ["docs/*.md", "lessons/*.ipynb", "README.md"]  # TEACHERS.md: included by docs/teachers.md
exclude_patterns = ["_site", ".venv", "**/.ipynb_checkpoints"]
nb_execution_mode = "off"  # the committed outputs are the course's own (scripts/build_lessons.py makes them)
nb_output_stderr = "remove"
myst_heading_anchors = 3
suppress_warnings = ["myst.header", "myst.xref_missing", "misc.highlighting_failure"]
html_theme = "alabaster"
html_title = "Amoeboid: a course"
autodoc_member_order = "bysource"
