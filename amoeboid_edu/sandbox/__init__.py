"""The walls around a student's strategy: a separate process, and on Linux seccomp, Landlock and resource limits.

The worker (``python -m amoeboid_edu.sandbox.core``) imports only this subpackage, the engine and the players'
helpers, so a strategy starts in a small, known process.  See docs/threat-model.md.
"""
