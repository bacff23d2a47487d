"""AMD's matrix-core layouts, as attributes only (parsed, verified and printed as triton-opt does; no AMD pass
or lowering uses them here): TritonGPUAttrDefs.td's AMDMfmaEncodingAttr and AMDWmmaEncodingAttr, with
Dialect.cpp's parsers, printers and verifiers (messages included).

- `#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>` (CDNA's
  MFMA results): `tilesPerWarp` (default all 1) and `elementBitWidth` (default 32) print only when not the
  default, `CGALayout` only with several CTAs. Keys Triton's parser does not know are ignored, as there.
- `#ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {register = [...], warp = [[0, 1], [1, 0]]},
  instrShape = [16, 16, 32]}>` (RDNA's WMMA results): `ctaLayout` is a linear layout of the warps (and
  register repetitions) over WMMA tiles; `register` may be left out; `rank` (default 2) gives the rank when the
  bases are empty; empty bases and the default instrShape [16, 16, 16] are not printed.

Both print under the alias `#mma`, as every MMA layout in Triton. As `#ttg.dot_op` parents, their kWidth rules
are Triton's (DotOperandEncodingAttr::verify): `dot_operand_problem`.
"""

from __future__ import annotations

import math

from xdsl.irdl import irdl_attr_definition

from ttc.ir.layouts import Layout
from ttc.ir.shared_layouts import (bases_text, boolean, cga_text, field_error, parse_bases, parse_cga, parse_dict, uint,
                                   uints)


def _ints_text(v) -> str:
    return "[" + ", ".join(map(str, v)) + "]"


class _AmdMma(Layout):
    ALIAS = "mma"
    DISTRIBUTED = True  # a distributed layout (a `#ttg.slice` / `#ttg.dot_op` parent; in tensor types)

    def children(self):
        return []


@irdl_attr_definition
class AMDMfmaEncoding(_AmdMma):
    name = "ttg.amd_mfma"

    @classmethod
    def parse_parameter(cls, parser) -> tuple:
        at = parser.pos
        parser.parse_punctuation("<")
        fields = parse_dict(parser)
        parser.parse_punctuation(">")
        v = {"version": 0, "warpsPerCTA": (), "instrShape": (), "isTransposed": False, "tilesPerWarp": (),
             "elementBitWidth": 32}
        for f in fields.values():
            if f.key in ("warpsPerCTA", "instrShape", "tilesPerWarp"):
                v[f.key] = uints(parser, f, f.key)
            elif f.key == "isTransposed":
                v[f.key] = boolean(parser, f, f.key)
            elif f.key in ("version", "elementBitWidth"):
                v[f.key] = uint(parser, f, f.key)
        cga = parse_cga(parser, fields.get("CGALayout"), len(v["warpsPerCTA"]))
        if not v["tilesPerWarp"]:
            v["tilesPerWarp"] = (1,) * len(v["instrShape"])

        def fail(msg):
            parser.raise_error(msg, at, parser.pos)

        if v["version"] > 4:
            fail("version must be in the [0, 4] range")
        m_n = tuple(v["instrShape"][:2])
        if m_n not in ((32, 32), (16, 16), (64, 4), (4, 64)):
            fail(f"invalid (mDim, nDim) combination: ({', '.join(map(str, m_n))})")
        if v["elementBitWidth"] not in (32, 64):
            fail("elementBitWidth must be 32 or 64")
        return (("version", v["version"]), ("warpsPerCTA", v["warpsPerCTA"]), ("instrShape", v["instrShape"]),
                ("isTransposed", v["isTransposed"]), ("CGALayout", cga), ("tilesPerWarp", v["tilesPerWarp"]),
                ("elementBitWidth", v["elementBitWidth"]))

    def mlir(self, p) -> str:
        text = (f"#ttg.amd_mfma<{{version = {self['version']}, warpsPerCTA = {_ints_text(self['warpsPerCTA'])}, "
                f"instrShape = {_ints_text(self['instrShape'])}, isTransposed = "
                f"{'true' if self['isTransposed'] else 'false'}{cga_text(self['CGALayout'])}")
        if any(t != 1 for t in self["tilesPerWarp"]):
            text += f", tilesPerWarp = {_ints_text(self['tilesPerWarp'])}"
        if self["elementBitWidth"] != 32:
            text += f", elementBitWidth = {self['elementBitWidth']}"
        return text + "}>"

    def dot_operand_problem(self, op_idx: int, k_width: int) -> str | None:
        if not k_width:
            return "ttg.dot_op kWidth parameter is mandatory for MFMA parent"
        return None

    def layout_rank(self) -> int:
        return len(self["warpsPerCTA"])

    def in_dims(self) -> tuple[int, int, int, int]:
        """(rank, lanes, warps, CTAs) of its linear layout, for the tensor-layout check: MFMA is wave64."""
        return self.layout_rank(), 64, math.prod(self["warpsPerCTA"]), 2 ** len(self["CGALayout"])


_WMMA_SHAPES = {1: ((16, 16, 16),), 2: ((16, 16, 16), (16, 16, 32)),
                3: ((16, 16, 4), (16, 16, 32), (16, 16, 64), (16, 16, 128))}


@irdl_attr_definition
class AMDWmmaEncoding(_AmdMma):
    name = "ttg.amd_wmma"

    @classmethod
    def parse_parameter(cls, parser) -> tuple:
        at = parser.pos
        parser.parse_punctuation("<")
        fields = parse_dict(parser)
        parser.parse_punctuation(">")
        v = {"version": 0, "rank": 2, "isTranspose": False, "instrShape": (16, 16, 16)}
        for f in fields.values():
            if f.key in ("version", "rank"):
                v[f.key] = uint(parser, f, f.key)
            elif f.key == "isTranspose":
                v[f.key] = boolean(parser, f, f.key)
            elif f.key == "instrShape":
                v[f.key] = uints(parser, f, f.key)
        cta = fields.get("ctaLayout")
        if cta is None:
            parser.raise_error("#ttg.amd_wmma needs a 'ctaLayout'", at, parser.pos)
        if not isinstance(cta.value, dict):
            field_error(parser, cta, at, "expected dictionary value for 'ctaLayout'")
        if "register" in cta.value:
            register, warp = parse_bases(parser, cta.value, ("register", "warp"), cta.start, v["rank"])
        else:
            (warp,) = parse_bases(parser, cta.value, ("warp",), cta.start, v["rank"])
            register = ()
        rank = len((register + warp)[0]) if register + warp else v["rank"]
        cga = parse_cga(parser, fields.get("CGALayout"), rank)
        if not 1 <= v["version"] <= 3:
            parser.raise_error("WMMA version must be in the [1, 3] range", at, parser.pos)
        if tuple(v["instrShape"]) not in _WMMA_SHAPES[v["version"]]:
            parser.raise_error(f"invalid WMMA v{v['version']} instruction shape", at, parser.pos)
        return (("version", v["version"]), ("register", register), ("warp", warp), ("rank", rank),
                ("isTranspose", v["isTranspose"]), ("CGALayout", cga), ("instrShape", v["instrShape"]))

    def mlir(self, p) -> str:
        text = (f"#ttg.amd_wmma<{{version = {self['version']}, isTranspose = "
                f"{'true' if self['isTranspose'] else 'false'}, ctaLayout = {{"
                f"{bases_text(('register', 'warp'), (self['register'], self['warp']), skip_empty=True)}}}"
                f"{cga_text(self['CGALayout'])}")
        if tuple(self["instrShape"]) != (16, 16, 16):
            text += f", instrShape = {_ints_text(self['instrShape'])}"
        return text + "}>"

    def dot_operand_problem(self, op_idx: int, k_width: int) -> str | None:
        version = self["version"]
        if version == 1 and k_width not in (8, 16):
            return "ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including packed cases for `scaled_dot`)"
        if version == 2 and k_width not in (4, 8, 16):
            return "ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 (including packed cases for `scaled_dot`)"
        if version == 3 and not k_width:
            return "ttg.dot_op kWidth parameter is mandatory for WMMA v3 "
        return None

    def layout_rank(self) -> int:
        return self["rank"]

    def in_dims(self) -> tuple[int, int, int, int]:
        """(rank, lanes, warps, CTAs) of its linear layout, for the tensor-layout check: WMMA is wave32."""
        return self["rank"], 32, 2 ** len(self["warp"]), 2 ** len(self["CGALayout"])


AMD_LAYOUTS = [AMDMfmaEncoding, AMDWmmaEncoding]
