"""Estimates without running (parqueens.run.estimate): the table's progress weights."""


def test_table_progress_weights_follow_the_work():
    from parqueens.run.estimate import size_weights

    w = size_weights([1, 2, 10, 14, 16, 17])
    assert abs(sum(w) - 1) < 1e-9 and w == sorted(w)
    assert w[-1] > 0.75 and w[-1] / w[-2] > 4  # n = 17 is most of table 10-17
