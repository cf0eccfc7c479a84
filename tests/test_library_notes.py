"""What a library user sees without configuring anything: the kernels'
compile note on stderr (logger ``parqueens`` at WARNING, printed by Python's
last-resort handler when no handler is configured), and progress bars from
``tqdm.auto`` (a widget in a notebook)."""

import logging

import tqdm.auto
from numba.core import event

import parqueens
from parqueens.search import kernels


def _compile_event():
    data = {"dispatcher": kernels._count, "args": (), "return_type": None}
    with event.trigger_event("numba:compile", data=data):
        pass


def test_the_compile_note_reaches_stderr_with_logging_unconfigured(monkeypatch, capsys):
    logger = logging.getLogger("parqueens")
    monkeypatch.setattr(logging.root, "handlers", [])  # as in a fresh interpreter
    monkeypatch.setattr(logger, "handlers", [])  # (an earlier CLI call installs one)
    monkeypatch.setattr(logger, "level", logging.NOTSET)
    monkeypatch.setattr(kernels._CompileNotice, "said", False)
    _compile_event()
    _compile_event()  # once per process
    err = capsys.readouterr().err
    assert err.count("compiling the kernels for their first use") == 1, err


def test_the_compile_note_is_a_warning_of_the_parqueens_logger(monkeypatch, caplog):
    monkeypatch.setattr(kernels._CompileNotice, "said", False)
    with caplog.at_level(logging.WARNING, logger="parqueens"):
        _compile_event()
    [record] = [r for r in caplog.records if r.name == "parqueens"]
    assert record.levelno == logging.WARNING
    assert record.getMessage().startswith("compiling the kernels")


def test_progress_bars_come_from_tqdm_auto(monkeypatch):
    made = []

    class Recorder(tqdm.auto.tqdm):
        def __init__(self, *args, **kwargs):
            made.append(kwargs.get("desc"))
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(tqdm.auto, "tqdm", Recorder)
    assert parqueens.count(12, method="d4", jobs=1, progress=True) == 14200
    assert len(made) == 1 and made[0].startswith("n=12")
