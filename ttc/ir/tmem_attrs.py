"""Blackwell's tensor memory (TMEM) as attributes: the memory space `#ttng.tensor_memory` and the encodings
`#ttng.tensor_memory_encoding` / `#ttng.tensor_memory_scales_encoding` (Triton 3.6's TritonNvidiaGPUAttrDefs.td),
parsed, verified and printed as triton-opt does. The ops that use them are in ttc/ir/tmem.py."""

from __future__ import annotations

from xdsl.ir import ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition

from ttc.ir.layouts import Layout



@irdl_attr_definition
class TensorMemorySpace(ParametrizedAttribute):
    """`#ttng.tensor_memory`: the memory space of tensor-memory descriptors."""

    name = "ttng.tensor_memory"

    def mlir(self, p) -> str:
        return "#ttng.tensor_memory"


class _Struct(Layout):
    """An attribute written `<key = value, ...>` (MLIR's `struct(params)`): any order in, declared order out,
    parameters at their default left out. `DEFAULTS` holds each parameter's default (None: required)."""

    DEFAULTS: dict = {}

    @classmethod
    def parse_parameter(cls, parser) -> tuple:
        start = parser.pos
        parser.parse_punctuation("<")
        got: dict = {}
        if not parser.parse_optional_punctuation(">"):
            while True:
                at = parser.pos
                key = parser.parse_optional_identifier()
                if key not in cls.DEFAULTS or key in got:
                    parser.raise_error(f"duplicate or unknown struct parameter name: {key or ''}", at)
                parser.parse_punctuation("=")
                if isinstance(cls.DEFAULTS[key], bool):
                    word = parser.parse_optional_keyword("true") or parser.parse_optional_keyword("false")
                    if word is None:
                        parser.raise_error("expected 'true' or 'false'")
                    got[key] = word == "true"
                else:
                    got[key] = parser.parse_integer(allow_negative=False)
                if parser.parse_optional_punctuation(">"):
                    break
                parser.parse_punctuation(",")
        for key, default in cls.DEFAULTS.items():
            if default is None and key not in got:
                parser.raise_error(f"struct is missing required parameter: {key}", start, parser.pos)
        fields = {k: got.get(k, d) for k, d in cls.DEFAULTS.items()}
        problem = cls.problem(fields)
        if problem:
            parser.raise_error(problem, start, parser.pos)
        return tuple(fields.items())

    @staticmethod
    def problem(fields: dict) -> str | None:
        return None

    @classmethod
    def make(cls, **fields):
        return cls(tuple((k, fields.get(k, d)) for k, d in cls.DEFAULTS.items()))

    def replace(self, **fields):
        return type(self).make(**{**dict(self.data), **fields})

    def mlir(self, p) -> str:
        shown = [(k, v) for k, v in self.data if v != self.DEFAULTS[k]]
        body = ", ".join(f"{k} = {('true' if v else 'false') if isinstance(v, bool) else v}" for k, v in shown)
        return f"#{self.name}<{body}>"


def _pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


@irdl_attr_definition
class TensorMemoryEncoding(_Struct):
    name = "ttng.tensor_memory_encoding"
    ALIAS = "tmem"
    DEFAULTS = {"blockM": None, "blockN": None, "colStride": None, "CTASplitM": 1, "CTASplitN": 1, "twoCTAs": False}

    @staticmethod
    def problem(f: dict) -> str | None:
        """TensorMemoryEncodingAttr::verify."""
        if not (_pow2(f["CTASplitM"]) and _pow2(f["CTASplitN"])):
            return "CTASplitM and CTASplitN must be greater than 0 and a power of 2"
        if f["blockM"] not in (64, 128):
            return f"blockM must be 64 or 128 but got {f['blockM']}"
        if not _pow2(f["blockN"]):
            return f"blockN must be a power of 2 but got {f['blockN']}"
        if f["blockN"] > 512:
            return f"blockN must be less than or equal to 512 but got {f['blockN']}"
        if f["colStride"] not in (1, 2, 4):
            return f"colStride must be 1, 2, or 4 but got but got {f['colStride']}"  # sic, as Triton says it
        return None


@irdl_attr_definition
class TensorMemoryScalesEncoding(_Struct):
    name = "ttng.tensor_memory_scales_encoding"
    ALIAS = "tmem_scales"
    DEFAULTS = {"CTASplitM": 1, "CTASplitN": 1}


TMEM_ENCODINGS = (TensorMemoryEncoding, TensorMemoryScalesEncoding)


def _dims_text(shape) -> str:
    """A shape as MLIR's diagnostics stream an ArrayRef: `128, 64`."""
    return ", ".join(str(d) for d in shape)
