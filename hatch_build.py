"""Wheel build hook: the course's notebooks go inside the package (``amoeboid_edu/_course``).

``amoeboid course DIR`` copies them out (``amoeboid_edu/ui/course_files.py``): the student editions
(``lessons/*.ipynb``), the teacher's editions (``lessons/solutions/*.ipynb``), ``TEACHERS.md`` and the lessons'
licence; never the lessons' sources or the test configuration, which only a repository needs.
"""

from __future__ import annotations

from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SHIPPED = ["lessons/*.ipynb", "lessons/solutions/*.ipynb", "lessons/TEACHERS.md", "lessons/LICENSE"]


class CourseHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        root = Path(self.root)
        for pattern in SHIPPED:
            for path in sorted(root.glob(pattern)):
                relative = path.relative_to(root / "lessons").as_posix()
                build_data["force_include"][str(path)] = f"amoeboid_edu/_course/{relative}"
