"""The exceptions an op's verifier raises beyond xDSL's VerifyException (whose message MLIR's verifier prefixes
with "'name' op"): `OpDiagnostics`, several messages emitted at the op as written, and `LocatedVerifyException`,
one message emitted at another op (a nested one) as written. ttc/ir/verifier.py turns each into diagnostics."""

from __future__ import annotations

from xdsl.utils.exceptions import VerifyException


class OpDiagnostics(VerifyException):
    """Raised by an op's verifier for diagnostics MLIR emits at the op, each printed as it is (MLIR's
    `emitError`; an `emitOpError` message starts with "'name' op"). Several messages are several diagnostics,
    as when an op's type inference reports a problem and then that it failed."""

    def __init__(self, *messages: str):
        super().__init__(messages[0])
        self.messages = messages


class LocatedVerifyException(VerifyException):
    """A verifier error reported at `op` (the op verified or one of its regions) with its message as written: MLIR's
    `op->emitError`, which has no "'name' op" prefix."""

    def __init__(self, op, msg: str):
        super().__init__(msg)
        self.op = op
