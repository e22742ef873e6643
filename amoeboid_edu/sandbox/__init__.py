"""The walls around a student's strategy: a separate process, and on Linux seccomp, Landlock and resource limits.

Its modules, each importing only those listed after it:

- :mod:`.harness`: the lab's end of a worker (:class:`~.harness.Sandbox`), which starts it and reads its answers;
- :mod:`.worker`: ``python -m amoeboid_edu.sandbox.worker``, the process that loads a strategy and plays its moves;
- :mod:`.walls`: Landlock, seccomp and resource limits, put up by the worker before any student code runs;
- :mod:`.processes`: a worker's process tree through ``/proc`` and ``prctl``;
- :mod:`.protocol`: the messages between the two ends, and what the harness accepts in them;
- :mod:`.text`: a student's text cut and escaped before anyone sees it.

The harness and the worker never import each other: the worker imports only its protocol and walls, the engine
and the players' helpers, so a strategy starts in a small, known process.  This file imports nothing, for the
same reason.  :mod:`.importpath` and :mod:`.defaults` are the lab's own, standard library only, for the command
line to use before it imports the lab.  See docs/threat-model.md.
"""
