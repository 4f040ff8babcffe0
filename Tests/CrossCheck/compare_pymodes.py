#!/usr/bin/env python3
"""Cross-check `flytracker decode` against pyModeS, field by field.

Reads a frames file (bare hex or AVR `*HEX;` / `@TTTTTTTTTTTTHEX;`, one per line), decodes every
frame with pyModeS, maps the results to FlyTracker's decoded-message keys (DESIGN.md), and compares
them with the JSON Lines that `flytracker decode` wrote for the same file: a per-field agreement
table, then every disagreement (line, frame, field, both values).

It is a report, not a gate: it exits 0 whatever it finds, and 2 only when an input cannot be read
(missing file, undecodable JSON, flytracker failing to run, pyModeS not installed).

Where the flytracker output comes from (first that applies):
  JSONL argument          a file made earlier by `flytracker decode FRAMES > out.jsonl` ('-' = stdin)
  --flytracker PATH       run `PATH decode FRAMES [--ref LAT,LON]`
  (neither)               `swift run flytracker decode FRAMES [--ref LAT,LON]` in the repo root
                          (done as `swift build --product flytracker` then the built binary)
  --pymodes-only          no flytracker at all: only decode with pyModeS and report what it gave

pyModeS: `pip install 'pyModeS<3'` gives the 2.x function API this script was written against
(pms.df, pms.icao, pms.adsb.*, pms.commb.*, pms.bds.infer, ...); `pip install pyModeS` gives 3.x,
whose dict API (pms.decode, pms.PipeDecoder) is used instead. --backend picks; auto prefers 2.x.

Positions: without --ref, a global CPR decode from an even/odd airborne pair of the same aircraft
gives the first position; after that each position frame is decoded locally against that aircraft's
last position (with 2.x; 3.x's PipeDecoder does its own pairing and also drops positions its
plausibility checks reject). With --ref, every position frame is decoded locally against the
reference. Times come from AVR `@` timestamps (12 MHz) when present, else the frame's index; the
pairing window (--pair-window) applies to real times only.

Fields pyModeS cannot give are not compared: a field counts as "only FT" or "only pMS" when one
side emits it. Ambiguous Comm-B inference (several BDS candidates) counts as agreement when
FlyTracker's `bds` is one of them; with 2.x the register's fields are then decoded as FlyTracker's
choice, with 3.x they are not compared.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field

# --------------------------------------------------------------------------------------------
# Fields, in report order, and how they are compared.
# --------------------------------------------------------------------------------------------

FIELDS = [
    "hex", "df", "tc", "bds", "ca", "fs", "dr", "um",
    "flight", "category", "squawk", "emergency",
    "alt_baro", "alt_geom",
    "gs", "ias", "tas", "mach", "track", "mag_heading", "true_heading", "roll", "track_rate",
    "baro_rate", "geom_rate",
    "nav_qnh", "nav_altitude_mcp", "nav_altitude_fms", "nav_heading", "nav_modes",
    "cpr_format", "cpr_lat", "cpr_lon", "lat", "lon",
    "nic", "nac_p", "nac_v", "sil", "version",
]

# Absolute tolerances for numbers; a field not listed must be equal.
TOLERANCE = {
    "alt_baro": 0.5,          # both sides exact 25/100 ft steps
    "alt_geom": 5.0,          # pyModeS truncates metres * 3.28084 to int (TC 20-22)
    "gs": 1.0,                # pyModeS truncates ground speed to int
    "ias": 1.0,
    "tas": 1.0,
    "mach": 0.002,            # BDS 6,0 LSB 0.004
    "track": 0.1,
    "mag_heading": 0.1,
    "true_heading": 0.1,
    "nav_heading": 0.1,
    "roll": 0.1,
    "track_rate": 0.02,       # BDS 5,0 LSB 8/256 deg/s
    "baro_rate": 1.0,
    "geom_rate": 1.0,
    "nav_qnh": 0.11,          # BDS 4,0 LSB 0.1 hPa, TC 29 LSB 0.8 hPa
    "nav_altitude_mcp": 1.0,
    "nav_altitude_fms": 1.0,
    "lat": 1e-4,              # about 11 m
    "lon": 1e-4,
}
ANGLES = {"track", "mag_heading", "true_heading", "nav_heading"}
# When pyModeS gives KEY and FlyTracker lacks it but has the alias, compare with the alias.
# (An airspeed-subtype velocity heading is magnetic or true depending on the aircraft's HRD bit.)
ALIASES = {"mag_heading": "true_heading"}

EMERGENCY = ["none", "general", "lifeguard", "minfuel", "nordo", "unlawful", "downed", "reserved"]
CATEGORY_SET = {4: "A", 3: "B", 2: "C", 1: "D"}


# --------------------------------------------------------------------------------------------
# Input frames
# --------------------------------------------------------------------------------------------

@dataclass
class Frame:
    line: int            # 1-based line in the frames file
    hex: str             # uppercase, 14 or 28 hex digits
    t: float             # seconds (AVR timestamp / 12e6) or frame index when has_time is False
    has_time: bool


class InputError(Exception):
    pass


HEXDIGITS = set("0123456789abcdefABCDEF")


def parse_frame_line(text: str):
    """Returns (hex, ticks or None) or None for a line that is not a Mode S frame."""
    s = text.strip()
    if not s or s.startswith("#"):
        return None
    ticks = None
    if s[0] == "@":
        body = s[1:].rstrip(";")
        if len(body) < 12 + 14 or not set(body) <= HEXDIGITS:
            raise ValueError("bad AVR @ line")
        ticks = int(body[:12], 16)
        h = body[12:]
    elif s[0] == "*":
        h = s[1:].rstrip(";")
    else:
        h = s.rstrip(";")
    if not h or not set(h) <= HEXDIGITS:
        raise ValueError("not hex")
    if len(h) == 4:                      # Mode A/C: nothing for pyModeS to decode
        return ("MODEAC", ticks)
    if len(h) not in (14, 28):
        raise ValueError(f"{len(h)} hex digits (expected 14 or 28)")
    return (h.upper(), ticks)


def read_frames(path: str) -> tuple[list[Frame], list[str]]:
    warnings = []
    frames: list[Frame] = []
    try:
        with open(path, "r", encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}")
    modeac = 0
    for n, text in enumerate(lines, 1):
        try:
            parsed = parse_frame_line(text)
        except ValueError as e:
            warnings.append(f"{path}:{n}: skipped, {e}: {text.strip()[:60]}")
            continue
        if parsed is None:
            continue
        h, ticks = parsed
        if h == "MODEAC":
            modeac += 1
            continue
        if ticks is None:
            frames.append(Frame(n, h, float(len(frames)), False))
        else:
            frames.append(Frame(n, h, ticks / 12e6, True))
    if modeac:
        warnings.append(f"{path}: {modeac} Mode A/C frames ignored (pyModeS decodes Mode S only)")
    if frames and any(fr.has_time for fr in frames) and not all(fr.has_time for fr in frames):
        warnings.append(f"{path}: mixed timestamped and bare lines; times ignored")
        for i, fr in enumerate(frames):
            fr.t, fr.has_time = float(i), False
    return frames, warnings


# --------------------------------------------------------------------------------------------
# Small bit helpers (bit 1 = MSB, as Doc 9871 numbers them)
# --------------------------------------------------------------------------------------------

def bits(h: str, first: int, last: int) -> int:
    n = len(h) * 4
    v = int(h, 16)
    width = last - first + 1
    return (v >> (n - last)) & ((1 << width) - 1)


def bds_label(s: str | None) -> str | None:
    """'BDS40' / '4,0' / '40' -> '4,0'."""
    if not s:
        return None
    s = s.strip().upper().replace("BDS", "").replace(" ", "")
    if "," in s:
        a, b = s.split(",", 1)
        return f"{a},{b}"
    if len(s) == 2:
        return f"{s[0]},{s[1]}"
    return s


def clean_callsign(s):
    if s is None:
        return None
    s = str(s).replace("_", " ").replace("#", " ").strip()
    return s or None


def category_label(tc: int, ca: int | None) -> str | None:
    if ca is None or tc not in CATEGORY_SET:
        return None
    return f"{CATEGORY_SET[tc]}{ca}"


# --------------------------------------------------------------------------------------------
# CPR bookkeeping shared by both backends
# --------------------------------------------------------------------------------------------

@dataclass
class CprState:
    # per (icao, kind): {0: (hex, t), 1: (hex, t)}
    last: dict = field(default_factory=lambda: defaultdict(dict))
    # per icao: (lat, lon, t)
    pos: dict = field(default_factory=dict)


def position_kind(tc: int | None) -> str | None:
    if tc is None:
        return None
    if 5 <= tc <= 8:
        return "surface"
    if 9 <= tc <= 18 or 20 <= tc <= 22:
        return "airborne"
    return None


# --------------------------------------------------------------------------------------------
# pyModeS 2.x backend (function API)
# --------------------------------------------------------------------------------------------

class PyModeS2:
    name = "pyModeS 2.x function API"

    def __init__(self, pms, ref, pair_window, timed):
        self.pms = pms
        from pyModeS.decoder import uncertainty  # noqa: F401  (2.x layout)
        self.unc = uncertainty
        self.ref = ref
        self.pair_window = pair_window
        self.cpr = CprState()
        self.version = {}     # icao -> ADS-B version from TC 31
        self.nic_sup = {}     # icao -> dict(nic_s=, nic_a=, nic_c=)

    # ---- helpers ---------------------------------------------------------------------------
    @staticmethod
    def _try(fn, *a):
        try:
            return fn(*a)
        except Exception:
            return None

    def _me(self, h):
        return self.pms.common.hex2bin(h)[32:88]

    def decode(self, fr: Frame, fly_hint: dict | None) -> dict:
        pms = self.pms
        h = fr.hex
        out: dict = {}
        df = pms.df(h)
        if df >= 24:
            df = 24
        out["df"] = df
        icao = self._try(pms.icao, h)
        if icao:
            out["hex"] = str(icao).lower()
        if df in (4, 5, 20, 21):
            out["fs"] = bits(h, 6, 8)
            out["dr"] = bits(h, 9, 13)
            out["um"] = bits(h, 14, 19)
        if df in (11, 17):
            out["ca"] = bits(h, 6, 8)
        if df in (0, 4, 16, 20):
            alt = self._try(pms.altcode, h)
            if alt is not None:
                out["alt_baro"] = alt
        if df in (5, 21):
            sq = self._try(pms.idcode, h)
            if sq is not None:
                out["squawk"] = str(sq).zfill(4)
        if df == 17 or (df == 18 and bits(h, 6, 8) in (0, 1)):
            self._adsb(fr, out)
        elif df in (20, 21):
            self._commb(fr, out, fly_hint)
        return out

    # ---- ADS-B -----------------------------------------------------------------------------
    def _adsb(self, fr: Frame, out: dict):
        adsb, h = self.pms.adsb, fr.hex
        icao = out.get("hex")
        tc = self._try(adsb.typecode, h)
        if tc is None:
            return
        out["tc"] = tc
        b = bds_label(self._try(self.pms.bds.infer, h))
        if b and "," in b and len(b) == 3:
            out["bds"] = b
        if 1 <= tc <= 4:
            cs = clean_callsign(self._try(adsb.callsign, h))
            if cs is not None:
                out["flight"] = cs
            cat = category_label(tc, self._try(adsb.category, h))
            if cat:
                out["category"] = cat
        kind = position_kind(tc)
        if kind:
            me = self._me(h)
            out["cpr_format"] = "odd" if me[21] == "1" else "even"
            out["cpr_lat"] = int(me[22:39], 2)
            out["cpr_lon"] = int(me[39:56], 2)
            if kind == "airborne":
                alt = self._try(adsb.altitude, h)
                if alt is not None:
                    out["alt_geom" if tc >= 20 else "alt_baro"] = alt
            else:
                v = self._try(adsb.surface_velocity, h)
                if v:
                    if v[0] is not None:
                        out["gs"] = v[0]
                    if v[1] is not None:
                        out["track"] = v[1]
            self._position(fr, out, tc, kind, icao)
            self._nic(out, h, tc, kind, icao)
        if tc == 19:
            v = self._try(adsb.velocity, h, True)
            if v:
                spd, ang, vr, spd_type, dir_type, vr_src = v
                if spd is not None:
                    key = {"GS": "gs", "IAS": "ias", "TAS": "tas"}.get(spd_type)
                    if key:
                        out[key] = spd
                if ang is not None:
                    out["track" if spd_type == "GS" else "mag_heading"] = ang
                if vr is not None:
                    out["baro_rate" if vr_src == "BARO" else "geom_rate"] = vr
            nacv = self._try(adsb.nac_v, h)
            if nacv:
                out["nac_v"] = nacv[0]
        if tc == 28 and bits(h, 38, 40) == 1:
            st = self._try(adsb.emergency_state, h)
            if st is not None and 0 <= st < len(EMERGENCY):
                out["emergency"] = EMERGENCY[st]
            sq = self._try(adsb.emergency_squawk, h)
            if sq is not None:
                out["squawk"] = str(sq).zfill(4)
        if tc == 29:
            self._target_state(out, h)
        if tc == 31:
            ver = self._try(adsb.version, h)
            if ver is not None:
                out["version"] = ver
                if icao:
                    self.version[icao] = ver
            nacp = self._try(adsb.nac_p, h)
            if nacp:
                out["nac_p"] = nacp[0]
            s = self._sil(h, ver)
            if s is not None:
                out["sil"] = s
            if icao and ver is not None:
                sup = {}
                if ver == 1:
                    sup["nic_s"] = self._try(adsb.nic_s, h)
                elif ver == 2:
                    ac = self._try(adsb.nic_a_c, h)
                    if ac:
                        sup["nic_a"], sup["nic_c"] = ac
                self.nic_sup[icao] = sup

    def _sil(self, h, ver):
        try:
            pe_rcu = self.pms.adsb.sil(h, ver)[0]
        except Exception:
            return None
        for k, v in self.unc.SIL.items():
            if v.get("PE_RCu") == pe_rcu:
                return k
        return None

    def _target_state(self, out, h):
        adsb = self.pms.adsb
        if bits(h, 38, 39) != 1:      # subtype 1 (version 2) only: version 1 carries targets
            return
        sel = self._try(adsb.selected_altitude, h)
        if sel and sel[0] is not None:
            out["nav_altitude_fms" if sel[1] == "FMS" else "nav_altitude_mcp"] = sel[0]
        q = self._try(adsb.baro_pressure_setting, h)
        if q is not None:
            out["nav_qnh"] = q
        hd = self._try(adsb.selected_heading, h)
        if hd is not None:
            out["nav_heading"] = hd
        nacp = self._try(adsb.nac_p, h)
        if nacp:
            out["nac_p"] = nacp[0]
        s = self._sil(h, 2)
        if s is not None:
            out["sil"] = s
        modes = []
        for name, fn in (("autopilot", "autopilot"), ("vnav", "vnav_mode"),
                         ("althold", "altitude_hold_mode"), ("approach", "approach_mode"),
                         ("lnav", "lnav_mode"), ("tcas", "tcas_operational")):
            f = getattr(adsb, fn, None)
            val = self._try(f, h) if f else None
            if val is None and name != "tcas":
                modes = None           # mode bits not valid in this message
                break
            if val:
                modes.append(name)
        if modes is not None:
            out["nav_modes"] = sorted(modes)

    def _nic(self, out, h, tc, kind, icao):
        adsb = self.pms.adsb
        ver = self.version.get(icao)
        sup = self.nic_sup.get(icao, {})
        nic = None
        if ver == 1 and sup.get("nic_s") is not None:
            r = self._try(adsb.nic_v1, h, sup["nic_s"])
            nic = r[0] if r else None
        elif ver == 2 and sup.get("nic_a") is not None:
            bc = self._try(adsb.nic_b, h) if kind == "airborne" else sup.get("nic_c")
            if bc is not None:
                r = self._try(adsb.nic_v2, h, sup["nic_a"], bc)
                nic = r[0] if r else None
        if nic is not None:
            out["nic"] = nic

    def _position(self, fr, out, tc, kind, icao):
        adsb = self.pms.adsb
        h = fr.hex
        if self.ref is not None:
            lat, lon = self.ref
            fn = adsb.airborne_position_with_ref if kind == "airborne" else adsb.surface_position_with_ref
            p = self._try(fn, h, lat, lon)
        else:
            # Local decoding against this aircraft's last position comes first: a global pair
            # whose halves are far apart in time can land in the wrong latitude zone.
            p = None
            oe = 1 if out["cpr_format"] == "odd" else 0
            slot = self.cpr.last[(icao, kind)]
            other = slot.get(1 - oe)
            slot[oe] = (h, fr.t)
            if icao in self.cpr.pos:
                plat, plon, pt = self.cpr.pos[icao]
                if not fr.has_time or abs(fr.t - pt) <= 30.0:
                    fn = adsb.airborne_position_with_ref if kind == "airborne" else adsb.surface_position_with_ref
                    p = self._try(fn, h, plat, plon)
            if p is None and kind == "airborne" and other and (
                    not fr.has_time or abs(fr.t - other[1]) <= self.pair_window):
                m0, t0 = (h, fr.t) if oe == 0 else other
                m1, t1 = other if oe == 0 else (h, fr.t)
                p = self._try(adsb.airborne_position, m0, m1, t0, t1)
        if p and p[0] is not None and p[1] is not None:
            out["lat"], out["lon"] = round(p[0], 6), round(p[1], 6)
            if icao:
                self.cpr.pos[icao] = (out["lat"], out["lon"], fr.t)

    # ---- Comm-B ----------------------------------------------------------------------------
    def _commb(self, fr, out, fly_hint):
        commb, h = self.pms.commb, fr.hex
        cand_s = self._try(self.pms.bds.infer, h)
        if not cand_s or cand_s == "EMPTY":
            return
        cands = [bds_label(c) for c in cand_s.split(",")]
        fly_bds = bds_label((fly_hint or {}).get("bds"))
        if len(cands) == 1:
            chosen = cands[0]
            out["bds"] = chosen
        else:
            out["_bds_candidates"] = cands
            if fly_bds not in cands:
                return
            chosen = fly_bds
        T = self._try
        if chosen == "2,0":
            cs = clean_callsign(T(commb.cs20, h))
            if cs:
                out["flight"] = cs
        elif chosen == "4,0":
            for key, fn in (("nav_altitude_mcp", commb.selalt40mcp),
                            ("nav_altitude_fms", commb.selalt40fms),
                            ("nav_qnh", commb.p40baro)):
                v = T(fn, h)
                if v is not None:
                    out[key] = v
        elif chosen == "5,0":
            for key, fn in (("roll", commb.roll50), ("track", commb.trk50), ("gs", commb.gs50),
                            ("track_rate", commb.rtrk50), ("tas", commb.tas50)):
                v = T(fn, h)
                if v is not None:
                    out[key] = v
        elif chosen == "6,0":
            for key, fn in (("mag_heading", commb.hdg60), ("ias", commb.ias60),
                            ("mach", commb.mach60), ("baro_rate", commb.vr60baro),
                            ("geom_rate", commb.vr60ins)):
                v = T(fn, h)
                if v is not None:
                    out[key] = v


# --------------------------------------------------------------------------------------------
# pyModeS 3.x backend (dict API)
# --------------------------------------------------------------------------------------------

class PyModeS3:
    name = "pyModeS 3.x dict API"

    def __init__(self, pms, ref, pair_window, timed):
        self.pms = pms
        self.ref = ref
        if ref:
            self.pipe = None
        elif timed:
            self.pipe = pms.PipeDecoder(pair_window=pair_window)
        else:
            # times are frame indices: no window (the 2.x path pairs without one too)
            big = 1e12
            self.pipe = pms.PipeDecoder(pair_window=big, local_ref_window=big, eviction_ttl=big)
        from pyModeS import _uncertainty as unc
        self.unc = unc
        self.version = {}
        self.nic_sup = {}

    def decode(self, fr: Frame, fly_hint: dict | None) -> dict:
        pms = self.pms
        h = fr.hex
        # Fields come from a stateless decode: the PipeDecoder blanks CPR fields of frames its
        # plausibility checks reject, which says nothing about the decoding of that frame.
        # Positions come from the PipeDecoder (global pairs, then local), or from the reference.
        try:
            if self.ref:
                d = pms.decode(h, reference=self.ref, surface_ref=self.ref)
            else:
                d = pms.decode(h)
                try:
                    pd = self.pipe.decode(h, timestamp=fr.t)
                except Exception:
                    pd = {}
                d.pop("latitude", None)
                d.pop("longitude", None)
                if pd.get("latitude") is not None and pd.get("longitude") is not None:
                    d["latitude"], d["longitude"] = pd["latitude"], pd["longitude"]
        except Exception:
            d = {}
        out: dict = {}
        if not d or d.get("error"):
            df = int(h[:2], 16) >> 3
            out["df"] = 24 if df >= 24 else df
            return out
        df = d.get("df")
        out["df"] = 24 if df is not None and df >= 24 else df
        if d.get("icao"):
            out["hex"] = str(d["icao"]).lower()
        icao = out.get("hex")
        if df in (4, 5, 20, 21):
            for k, src in (("fs", "flight_status"), ("dr", "downlink_request"), ("um", "utility_message")):
                if d.get(src) is not None:
                    out[k] = d[src]
            if df in (20, 21) and "fs" not in out:
                out["fs"], out["dr"], out["um"] = bits(h, 6, 8), bits(h, 9, 13), bits(h, 14, 19)
        if df in (11, 17) and d.get("capability") is not None:
            out["ca"] = d["capability"]
        elif df in (11, 17):
            out["ca"] = bits(h, 6, 8)
        tc = d.get("typecode")
        if tc is not None:
            out["tc"] = tc
        if d.get("bds"):
            out["bds"] = bds_label(d["bds"])
        if d.get("bds_candidates"):
            # 3.x gives no register fields for an unresolved candidate set
            out["_bds_candidates"] = [bds_label(c) for c in d["bds_candidates"]]
        if d.get("altitude") is not None:
            if tc is not None and 20 <= tc <= 22:
                out["alt_geom"] = d["altitude"]
            else:
                out["alt_baro"] = d["altitude"]
        if d.get("squawk") is not None:
            out["squawk"] = str(d["squawk"]).zfill(4)
        cs = clean_callsign(d.get("callsign"))
        if cs:
            out["flight"] = cs
        if tc is not None and 1 <= tc <= 4:
            cat = category_label(tc, d.get("category"))
            if cat:
                out["category"] = cat
        if d.get("cpr_format") is not None:
            out["cpr_format"] = "odd" if d["cpr_format"] == 1 else "even"
            out["cpr_lat"], out["cpr_lon"] = d.get("cpr_lat"), d.get("cpr_lon")
        if d.get("latitude") is not None and d.get("longitude") is not None:
            out["lat"], out["lon"] = round(d["latitude"], 6), round(d["longitude"], 6)
        # speeds, angles, rates
        if d.get("groundspeed") is not None:
            out["gs"] = d["groundspeed"]
        if d.get("track") is not None:
            out["track"] = d["track"]
        if d.get("true_track") is not None:
            out["track"] = d["true_track"]
        if d.get("heading") is not None:
            out["true_heading" if d.get("hrd") in (1, "TRUE_NORTH") else "mag_heading"] = d["heading"]
        if d.get("magnetic_heading") is not None:
            out["mag_heading"] = d["magnetic_heading"]
        if d.get("airspeed") is not None:
            key = {"IAS": "ias", "TAS": "tas"}.get(str(d.get("airspeed_type", "")).upper())
            if key:
                out[key] = d["airspeed"]
        if d.get("indicated_airspeed") is not None:
            out["ias"] = d["indicated_airspeed"]
        if d.get("true_airspeed") is not None:
            out["tas"] = d["true_airspeed"]
        if d.get("mach") is not None:
            out["mach"] = d["mach"]
        if d.get("roll") is not None:
            out["roll"] = d["roll"]
        if d.get("track_rate") is not None:
            out["track_rate"] = d["track_rate"]
        if d.get("vertical_rate") is not None:
            out["baro_rate" if d.get("vr_source") == "BARO" else "geom_rate"] = d["vertical_rate"]
        if d.get("baro_vertical_rate") is not None:
            out["baro_rate"] = d["baro_vertical_rate"]
        if d.get("inertial_vertical_rate") is not None:
            out["geom_rate"] = d["inertial_vertical_rate"]
        # intentions
        if d.get("selected_altitude_mcp") is not None:
            out["nav_altitude_mcp"] = d["selected_altitude_mcp"]
        if d.get("selected_altitude_fms") is not None:
            out["nav_altitude_fms"] = d["selected_altitude_fms"]
        if d.get("selected_altitude") is not None:
            src = d.get("selected_altitude_source")
            out["nav_altitude_fms" if src == "FMS" else "nav_altitude_mcp"] = d["selected_altitude"]
        if d.get("baro_pressure_setting") is not None:
            out["nav_qnh"] = d["baro_pressure_setting"]
        if d.get("selected_heading") is not None:
            out["nav_heading"] = d["selected_heading"]
        mode_keys = (("autopilot", "autopilot"), ("vnav", "vnav_mode"), ("althold", "altitude_hold_mode"),
                     ("approach", "approach_mode"), ("lnav", "lnav_mode"), ("tcas", "tcas_operational"))
        # TC 29: modes only when the "MCP/FCU mode bits valid" flag (ME bit 47) is set, as in 2.x
        modes_valid = bits(h, 79, 79) == 1 if tc == 29 else True
        if modes_valid and any(d.get(k) is not None for _, k in mode_keys):
            out["nav_modes"] = sorted(n for n, k in mode_keys if d.get(k))
        if tc == 28 and d.get("emergency_state") is not None and 0 <= d["emergency_state"] < 8:
            out["emergency"] = EMERGENCY[d["emergency_state"]]
        # quality
        for k in ("nac_p", "nac_v", "sil", "version"):
            if d.get(k) is not None:
                out[k] = d[k]
        if tc == 31 and icao and d.get("version") is not None:
            self.version[icao] = d["version"]
            self.nic_sup[icao] = d.get("nic_supplement_a")
        kind = position_kind(tc)
        if kind == "airborne" and icao in self.version:
            nic = self._nic(tc, self.version[icao], self.nic_sup.get(icao), d.get("nic_b"))
            if nic is not None:
                out["nic"] = nic
        return out

    def _nic(self, tc, ver, nic_a, nic_b):
        if ver == 1:
            table, sup = self.unc.TC_NICv1_lookup, nic_a
        elif ver == 2:
            table = self.unc.TC_NICv2_lookup
            sup = None if nic_a is None or nic_b is None else nic_a * 2 + nic_b
        else:
            return None
        v = table.get(tc)
        if isinstance(v, dict):
            if 20 <= tc <= 22:
                sup = 0
            return v.get(sup)
        return v


def make_backend(choice, ref, pair_window, timed):
    try:
        import pyModeS as pms
    except ImportError:
        raise InputError("pyModeS is not installed: pip install 'pyModeS<3'  (or pyModeS for 3.x)")
    has_v2 = hasattr(pms, "df") and hasattr(pms, "adsb")
    has_v3 = hasattr(pms, "decode") and hasattr(pms, "PipeDecoder")
    if choice == "v2" or (choice == "auto" and has_v2):
        if not has_v2:
            raise InputError("installed pyModeS has no 2.x function API: pip install 'pyModeS<3'")
        b = PyModeS2(pms, ref, pair_window, timed)
    elif choice == "v3" or (choice == "auto" and has_v3):
        if not has_v3:
            raise InputError("installed pyModeS has no 3.x dict API: pip install -U pyModeS")
        b = PyModeS3(pms, ref, pair_window, timed)
    else:
        raise InputError("installed pyModeS offers neither the 2.x nor the 3.x API")
    version = getattr(pms, "__version__", None)
    if version is None:
        try:
            from importlib.metadata import version as _v
            version = _v("pyModeS")
        except Exception:
            version = "?"
    b.version_string = f"{b.name}, pyModeS {version}"
    return b


# --------------------------------------------------------------------------------------------
# FlyTracker output
# --------------------------------------------------------------------------------------------

RAW_KEYS = ("raw", "frame", "msg", "message")


def load_jsonl(text: str, origin: str) -> list[dict]:
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s:
            continue
        try:
            obj = json.loads(s)
        except json.JSONDecodeError as e:
            raise InputError(f"{origin}:{n}: not JSON: {e.msg}")
        if not isinstance(obj, dict):
            raise InputError(f"{origin}:{n}: not a JSON object")
        rows.append(obj)
    return rows


def run_flytracker(cmd: list[str]) -> str:
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise InputError(f"cannot run {' '.join(cmd)}: {e.strerror}")
    if p.returncode != 0:
        tail = (p.stderr or "").strip().splitlines()[-5:]
        raise InputError(f"`{' '.join(cmd)}` exited {p.returncode}:\n  " + "\n  ".join(tail))
    return p.stdout


def align(frames: list[Frame], rows: list[dict], warnings: list[str]) -> list[dict | None]:
    """One flytracker object per frame, by its raw-frame key when it has one, else by order."""
    raw_key = next((k for k in RAW_KEYS if rows and all(isinstance(r.get(k), str) for r in rows)), None)
    if raw_key:
        out: list[dict | None] = []
        j = 0
        lookahead = 8     # extra objects tolerated before a frame counts as missing
        for fr in frames:
            k = j
            while k < min(len(rows), j + lookahead) and \
                    rows[k][raw_key].strip().strip("*@;").upper()[-len(fr.hex):] != fr.hex:
                k += 1
            if k < min(len(rows), j + lookahead):
                out.append(rows[k])
                j = k + 1
            else:
                out.append(None)
        missing = sum(1 for o in out if o is None)
        if missing:
            warnings.append(f"{missing} frames have no flytracker object with a matching '{raw_key}'")
        return out
    if len(rows) != len(frames):
        warnings.append(f"flytracker gave {len(rows)} objects for {len(frames)} frames; "
                        f"compared by order, the first {min(len(rows), len(frames))} only")
    return [rows[i] if i < len(rows) else None for i in range(len(frames))]


# --------------------------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------------------------

def norm(key, v):
    if v is None:
        return None
    if key in ("hex",):
        return str(v).lower().lstrip("~")
    if key == "bds":
        return bds_label(str(v))
    if key == "flight":
        return clean_callsign(v)
    if key == "squawk":
        return str(v).zfill(4)
    if key in ("category", "cpr_format", "emergency"):
        return str(v)
    if key == "nav_modes":
        if isinstance(v, (list, tuple, set)):
            return sorted(str(x) for x in v)
        return sorted(str(v).replace(",", " ").split())
    return v


def equal(key, a, b) -> bool:
    a, b = norm(key, a), norm(key, b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        tol = TOLERANCE.get(key, 0.0)
        d = abs(float(a) - float(b))
        if key in ANGLES:
            d = min(d, 360.0 - d)
        return d <= tol + 1e-9
    return a == b


def fmt(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    return json.dumps(v) if not isinstance(v, str) else v


@dataclass
class Tally:
    both: int = 0
    agree: int = 0
    only_fly: int = 0
    only_pms: int = 0
    ambiguous: int = 0


def compare(frames, pms_rows, fly_rows):
    tallies = OrderedDict((k, Tally()) for k in FIELDS)
    disagreements = defaultdict(list)   # field -> [(frame, fly, pms)]
    fly_unchecked = defaultdict(int)
    for fr, p, f in zip(frames, pms_rows, fly_rows):
        if f is None:
            continue
        used_fly = set()
        for key in FIELDS:
            pv = p.get(key)
            fkey = key
            if pv is not None and f.get(key) is None and key in ALIASES and f.get(ALIASES[key]) is not None:
                fkey = ALIASES[key]
            fv = f.get(fkey)
            if key == "bds" and pv is None and p.get("_bds_candidates"):
                t = tallies[key]
                if fv is not None:
                    t.both += 1
                    if norm("bds", fv) in p["_bds_candidates"]:
                        t.agree += 1
                        t.ambiguous += 1
                    else:
                        disagreements[key].append((fr, fv, "one of " + "/".join(p["_bds_candidates"])))
                    used_fly.add(fkey)
                continue
            if pv is None and fv is None:
                continue
            t = tallies[key]
            if pv is not None and fv is not None:
                used_fly.add(fkey)
                t.both += 1
                if equal(key, fv, pv):
                    t.agree += 1
                else:
                    disagreements[key].append((fr, fv, pv))
            elif fv is not None:
                if key in ALIASES.values() and any(p.get(a) is not None and f.get(a) is None
                                                   for a, b in ALIASES.items() if b == key):
                    continue
                t.only_fly += 1
            else:
                t.only_pms += 1
        for k in f:
            if k not in FIELDS:
                fly_unchecked[k] += 1
    return tallies, disagreements, fly_unchecked


def print_report(out, frames, tallies, disagreements, fly_unchecked, max_show):
    w = out.write
    w("\nPer-field agreement (both = frames where both emitted the field)\n\n")
    w(f"{'field':<18}{'both':>7}{'agree':>7}{'differ':>8}{'agree%':>8}{'only FT':>9}{'only pMS':>9}\n")
    w("-" * 66 + "\n")
    tot_both = tot_agree = 0
    for key, t in tallies.items():
        if not (t.both or t.only_fly or t.only_pms):
            continue
        pct = f"{100.0 * t.agree / t.both:.1f}" if t.both else "-"
        amb = f"  ({t.ambiguous} ambiguous Comm-B)" if t.ambiguous else ""
        w(f"{key:<18}{t.both:>7}{t.agree:>7}{t.both - t.agree:>8}{pct:>8}{t.only_fly:>9}{t.only_pms:>9}{amb}\n")
        tot_both += t.both
        tot_agree += t.agree
    w("-" * 66 + "\n")
    pct = f"{100.0 * tot_agree / tot_both:.1f}" if tot_both else "-"
    w(f"{'all fields':<18}{tot_both:>7}{tot_agree:>7}{tot_both - tot_agree:>8}{pct:>8}\n")
    if fly_unchecked:
        w("\nFlyTracker keys not compared (pyModeS has no counterpart): "
          + ", ".join(f"{k} ({n})" for k, n in sorted(fly_unchecked.items())) + "\n")
    n = sum(len(v) for v in disagreements.values())
    w(f"\nDisagreements: {n}\n")
    for key in FIELDS:
        rows = disagreements.get(key)
        if not rows:
            continue
        w(f"\n  {key} ({len(rows)})\n")
        for fr, fv, pv in rows[: max_show if max_show > 0 else len(rows)]:
            w(f"    line {fr.line:<6} {fr.hex:<28}  flytracker={fmt(fv)}  pyModeS={fmt(pv)}\n")
        if 0 < max_show < len(rows):
            w(f"    ... {len(rows) - max_show} more (--max-show 0 shows all)\n")


def print_pymodes_summary(out, frames, pms_rows):
    w = out.write
    counts = OrderedDict((k, 0) for k in FIELDS)
    dfs = defaultdict(int)
    amb = 0
    for p in pms_rows:
        dfs[p.get("df")] += 1
        if p.get("_bds_candidates") and not p.get("bds"):
            amb += 1
        for k in FIELDS:
            if p.get(k) is not None:
                counts[k] += 1
    w("\nFrames by DF: " + ", ".join(f"DF{k} {v}" for k, v in sorted(dfs.items(), key=lambda x: (x[0] is None, x[0]))) + "\n")
    w("\nFields pyModeS decoded (frames carrying each key)\n\n")
    for k, v in counts.items():
        if v:
            w(f"  {k:<18}{v:>7}\n")
    if amb:
        w(f"\n  {amb} Comm-B frames with an ambiguous BDS (several candidates, no register fields)\n")


# --------------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------------

def parse_ref(s):
    try:
        lat, lon = (float(x) for x in s.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("expected LAT,LON")
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise argparse.ArgumentTypeError("LAT,LON out of range")
    return (lat, lon)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Compare `flytracker decode` with pyModeS, field by field.")
    ap.add_argument("frames", help="frames file: bare hex or AVR (*HEX; / @TTTTTTTTTTTTHEX;), one per line")
    ap.add_argument("jsonl", nargs="?", help="flytracker decode output for FRAMES (JSON Lines; '-' = stdin)")
    ap.add_argument("--flytracker", metavar="PATH", help="run PATH decode FRAMES instead of reading JSONL")
    ap.add_argument("--pymodes-only", action="store_true", help="decode with pyModeS only; no comparison")
    ap.add_argument("--scratch-path", metavar="DIR",
                    help="SwiftPM scratch path for the default build-and-run (e.g. .build-crosscheck)")
    ap.add_argument("--ref", type=parse_ref, metavar="LAT,LON",
                    help="reference position: local CPR decoding (also passed to flytracker)")
    ap.add_argument("--backend", choices=("auto", "v2", "v3"), default="auto",
                    help="pyModeS API to use (default: 2.x if installed, else 3.x)")
    ap.add_argument("--pair-window", type=float, default=10.0, metavar="S",
                    help="max seconds between the even and odd frame of a CPR pair (timestamped input)")
    ap.add_argument("--max-show", type=int, default=20, metavar="N",
                    help="disagreements listed per field (0 = all; default 20)")
    ap.add_argument("--emit-pymodes", metavar="PATH",
                    help="also write pyModeS's decoding as JSON Lines in FlyTracker's keys")
    args = ap.parse_args(argv)

    out = sys.stdout
    try:
        frames, warnings = read_frames(args.frames)
        if not frames:
            raise InputError(f"{args.frames}: no Mode S frames")
        backend = make_backend(args.backend, args.ref, args.pair_window, frames[0].has_time)

        fly_rows = None
        origin = None
        if not args.pymodes_only:
            if args.jsonl:
                origin = args.jsonl
                if args.jsonl == "-":
                    text = sys.stdin.read()
                else:
                    try:
                        with open(args.jsonl, "r", encoding="utf-8") as f:
                            text = f.read()
                    except OSError as e:
                        raise InputError(f"cannot read {args.jsonl}: {e.strerror}")
            else:
                extra = ["--ref", f"{args.ref[0]},{args.ref[1]}"] if args.ref else []
                if args.flytracker:
                    cmd = [args.flytracker, "decode", args.frames] + extra
                else:
                    # `swift run flytracker decode FILE`, done as build + run of the built binary
                    # so that SwiftPM's progress lines never mix with the JSON on stdout.
                    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
                    scratch = ["--scratch-path", args.scratch_path] if args.scratch_path else []
                    run_flytracker(["swift", "build", "--package-path", root, "--product", "flytracker"] + scratch)
                    bin_dir = run_flytracker(["swift", "build", "--package-path", root, "--show-bin-path"]
                                             + scratch).strip().splitlines()[-1]
                    cmd = [os.path.join(bin_dir, "flytracker"), "decode", os.path.abspath(args.frames)] + extra
                origin = " ".join(cmd)
                text = run_flytracker(cmd)
            rows = load_jsonl(text, origin)
            fly_rows = align(frames, rows, warnings)
    except InputError as e:
        print(f"compare_pymodes: {e}", file=sys.stderr)
        return 2

    pms_rows = [backend.decode(fr, fly_rows[i] if fly_rows else None) for i, fr in enumerate(frames)]

    w = out.write
    w(f"frames:     {args.frames} ({len(frames)} Mode S frames"
      + (", AVR timestamps" if frames[0].has_time else "") + ")\n")
    w(f"pyModeS:    {backend.version_string}"
      + (f", reference {args.ref[0]},{args.ref[1]}" if args.ref else ", global CPR pairs") + "\n")
    if origin:
        w(f"flytracker: {origin}\n")
    for m in warnings:
        w(f"warning:    {m}\n")

    if args.emit_pymodes:
        try:
            with open(args.emit_pymodes, "w", encoding="utf-8") as f:
                for p in pms_rows:
                    f.write(json.dumps({k: p[k] for k in FIELDS if p.get(k) is not None}) + "\n")
        except OSError as e:
            print(f"compare_pymodes: cannot write {args.emit_pymodes}: {e.strerror}", file=sys.stderr)
            return 2

    if fly_rows is None:
        print_pymodes_summary(out, frames, pms_rows)
        return 0
    tallies, disagreements, unchecked = compare(frames, pms_rows, fly_rows)
    print_report(out, frames, tallies, disagreements, unchecked, args.max_show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
