"""Running a count: planned once, dispatched in chunks, merged exactly, stored.

What it owns, from the bottom up (a module imports only those above it in
this list, never one below):

- :mod:`.method`: the counting methods by name, one object each
  (:class:`parqueens.methods.Method`: the search's and the join's);
- :mod:`.checkpoint_file`: the checkpoint file's life (created aside and
  published, opened, held by one run, transactions);
- :mod:`.store`: the checkpoint's format and the identity checks of a run
  (:class:`~.store.RunStore`, :class:`~.store.CheckpointError`);
- :mod:`.signals`: signals around the processes a run starts (loky's
  workers, a local Dask cluster's start and close);
- :mod:`.cluster`: the Dask cluster of a run (its client, reached or
  started, its workers set up and watched);
- :mod:`.backends`: where units run and on how many jobs, a run's
  interrupts, lost workers, the Dask client;
- :mod:`.tally`: the exact merge of units' results into counts and classes;
- :mod:`.chunks`: work units run in this process or on a backend, the kernels
  loaded once per process first (:func:`~.chunks.warm_up`);
- :mod:`.estimate`: a count's time without running it;
- :mod:`.plan`: a count decided once (:class:`~.plan.CountPlan`: method,
  jobs, split depth, memory, the checkpoint's method and claim) and split
  into its work units (:class:`~.plan.Split`);
- :mod:`.status`: what a checkpoint holds, per size;
- :mod:`.runner`: :func:`~.runner.run_count` and :func:`~.runner.run_plan`:
  resume, recheck, dispatch, :class:`~.runner.CountResult`;
- :mod:`.merge`: the checkpoints of a count's parts merged into the whole's;
- :mod:`.listing`: listing solutions in lexicographic order, in threads.

What it may import: the search (:mod:`parqueens.search`), the join
(:mod:`parqueens.join`), :mod:`parqueens.io` and the shared bottom; never
:mod:`parqueens.cli`, which uses it (``tests/test_module_boundaries.py``).
"""

__all__: list[str] = []
