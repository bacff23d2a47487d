"""ttc.opt.greedy_rewrite.GreedyDriver's skips: the iteration that confirms a fixed point passes over the ops
processed without a change since the last change (`clean`), a driver told that the IR is as an earlier one left it
(`after`) passes over that one's clean ops whose patterns it had too, and loop-aware CSE's second cse runs only
where the first or the loop merging changed something. Each is checked against the driver without the skip
(same module printed) and by counting the pattern calls it spares."""

from ttc.ir.parser import parse
from ttc.ir.printer import print_ir
from ttc.opt.greedy_rewrite import GreedyDriver, fold_in_place

TEXT = """module {
  tt.func @f(%x: i32, %y: i32) -> (i32, i32) {
    %c0 = arith.constant 0 : i32
    %m1 = arith.muli %x, %y : i32
    %m2 = arith.muli %m1, %y : i32
    %m3 = arith.muli %m2, %x : i32
    %m4 = arith.muli %m3, %m1 : i32
    %a = arith.addi %m4, %c0 : i32
    tt.return %a, %c0 : i32, i32
  }
}
"""


def _run(clean: bool):
    calls = []

    def never(op, rw):  # a pattern that never matches, counting the ops it is tried on
        calls.append(op)
        return False

    module = parse(TEXT)
    driver = GreedyDriver({"arith.muli": [never]}, fold_in_place=fold_in_place)
    if not clean:  # the driver as it was: every op processed in every iteration
        driver._process = _without_clean(driver)
    assert driver.run(module.regions[0])
    return print_ir(module), calls, driver


def _without_clean(driver):
    process = driver._process

    def run():
        driver.clean_version = -2  # never equal to `version`: nothing is skipped
        driver.version = -3
        return process()

    return run


def test_confirming_iteration_skips_clean_ops():
    out, calls, _ = _run(clean=True)
    ref, ref_calls, _ = _run(clean=False)
    assert out == ref and "arith.addi" not in out  # addi x, 0 folded in the first iteration, nothing else changed
    # bottom-up, the addi (last in its block but for the return) is processed first: its fold is the iteration's
    # only change (the constant stays, returned), so the four muli are processed after it without a change and
    # the second iteration passes over them
    assert len(ref_calls) == 8 and len(calls) == 4


def test_inherit_clean_ops():
    calls = []

    def never(op, rw):
        calls.append(op)
        return False

    def other(op, rw):
        calls.append(op)
        return False

    module = parse(TEXT)
    first = GreedyDriver({"arith.muli": [never]}, fold_in_place=fold_in_place)
    first.run(module.regions[0])
    out = print_ir(module)
    # nothing changed since `first`: a driver with the same patterns (or fewer) tries nothing on the muli again
    calls.clear()
    second = GreedyDriver({"arith.muli": [never]}, fold_in_place=fold_in_place)
    second.inherit(first)
    assert second.run(module.regions[0]) and calls == [] and print_ir(module) == out
    # one with a pattern `first` did not have tries it on each muli; one without `inherit` tries them all
    third = GreedyDriver({"arith.muli": [never, other]}, fold_in_place=fold_in_place)
    third.inherit(second)
    third.run(module.regions[0])
    assert len(calls) == 8
    calls.clear()
    GreedyDriver({"arith.muli": [never]}, fold_in_place=fold_in_place).run(module.regions[0])
    assert len(calls) == 4
    # a driver with an in-place fold that `first` lacked (its muli are commutative ops) vouches for none of them
    calls.clear()
    fourth = GreedyDriver({"arith.muli": [never]})
    fourth.run(module.regions[0])
    fifth = GreedyDriver({"arith.muli": [never]}, fold_in_place=fold_in_place)
    fifth.inherit(fourth)
    fifth.run(module.regions[0])
    assert len(calls) == 8


def test_loop_aware_cse_second_cse_only_after_a_change(monkeypatch):
    import ttc.passes.loop_aware_cse as lacse

    runs = []

    def counting(op):
        runs.append(op)
        return cse(op)

    from ttc.opt.cse import cse
    monkeypatch.setattr(lacse, "cse", counting)
    module = parse(TEXT)
    lacse.LoopAwareCSE().apply(None, module)  # nothing to merge: the second cse would change nothing
    assert len(runs) == 1
    dup = TEXT.replace("%m2 = arith.muli %m1, %y", "%m2 = arith.muli %x, %y")  # %m2 the same as %m1
    module = parse(dup)
    runs.clear()
    lacse.LoopAwareCSE().apply(None, module)
    assert len(runs) == 2 and print_ir(module).count("arith.muli") == 3
