"""The rules texts' own spellings parse: every province name and abbreviation their examples and tables
use (OCR slips included: a player copying an order out of the text must not be refused), and every order
written in Coast-Running's examples (issue 17.3). The lists are copied from the variants' rules texts
(``maps/<variant>.md`` names each text and where it differs from the map data)."""

from __future__ import annotations

import re

import pytest
from adjutant import load_variant
from adjutant.adjudication.orders import Unit, parse_order

#: Names and abbreviations each text uses for a province, with the province meant.
SPELLINGS: dict[str, list[tuple[str, str]]] = {
    "coast_running": [
        ("Lon", "lon"), ("Nth", "nth"), ("Yor", "yor"), ("Holl", "hol"), ("Helg", "hel"), ("Bel", "bel"),
        ("Ion", "ion"), ("WMed", "wes"), ("Tun", "tun"), ("Edi", "edi"), ("Nat", "nao"), ("Cly", "cly"),
        ("Tri", "tri"), ("Ven", "ven"), ("Apu", "apu"), ("StP", "stp"), ("E.C.", "eng"), ("EC", "eng"),
        ("Nwy", "nwy"), ("Bal", "bal"), ("Kie", "kie"), ("Rum", "rum"), ("Gre", "gre"), ("Bul", "bul"),
        ("Con", "con"), ("Con.", "con"), ("Swe", "swe"), ("Den", "den"), ("Spa", "spa"), ("Mid", "mao"),
        ("Bla", "bla"), ("Aeg", "aeg"), ("Smy", "smy"), ("Alb", "alb"), ("Pic", "pic"), ("Ruh", "ruh"),
        ("Denmark", "den"), ("Mar", "mar"), ("Por", "por"),
    ],
    "loeb9": [
        ("Mid Atlantic", "mao"), ("Gascony", "gas"), ("Catalonia", "cat"), ("Madrid", "mad"), ("Portugal", "por"),
        ("Navarre", "nav"), ("Cordoba", "cor"), ("Marseilles", "mar"), ("Gulf of Lyon", "lyo"),
        ("Western Mediterranean", "wes"), ("Iceland", "ice"), ("Ireland", "ire"), ("Corsica", "crs"),
        ("Sardinia", "sar"), ("Sicily", "sic"), ("North Africa", "naf"), ("Naples", "nap"), ("Arctic Ocean", "arc"),
        ("North Atlantic", "nao"), ("Norwegian Sea", "nwg"), ("Barents Sea", "bar"), ("Siberia", "sib"),
        ("St Pete", "stp"), ("Moscow", "mos"), ("Kazakz", "kaz"), ("Prussia", "pru"), ("Silesia", "sil"),
        ("Norway", "nwy"), ("Denmark", "den"),
        # the judges' map files (njudge, dpjudge)
        ("sevastapol", "sev"), ("St Petersburg", "stp"), ("stpete", "stp"),
    ],
    "cluster": [("London", "lon"), ("Marseilles", "mar"), ("Gulf of Lyons", "lyo"), ("Lyons", "lyo")],
    "cline5": [
        ("BLA", "bla"), ("Sev", "sev"), ("Mos", "mos"), ("CAS", "cas"), ("BAL", "bal"), ("SKA", "ska"),
        ("Kie", "kie"), ("Con", "con"), ("Egy", "egy"), ("Antarctic", "ant"), ("Ireland", "ire"), ("Clyde", "cly"),
        ("Naples", "nap"), ("Sicily", "sic"), ("NAO", "nao"), ("Lvp", "lvp"), ("Tys", "tys"), ("Ion", "ion"),
        ("Arkangel", "ark"),
    ],
    "cline6": [
        ("Sev", "sev"), ("Ura", "ura"), ("Geo", "geo"), ("Moscow", "mos"), ("Ireland", "ire"), ("Clyde", "cly"),
        ("Naples", "nap"), ("Sicily", "sic"), ("NAO", "nao"), ("Lvp", "lvp"), ("Tys", "tys"), ("Ion", "ion"),
        ("WAO", "wao"), ("IND", "ind"), ("Ant", "ant"), ("Warsaw", "war"), ("Canary Islands", "cai"),
        ("Sudan", "sud"), ("Egypt", "egy"), ("Crete", "cre"), ("Corsica", "cor"), ("Piedmont", "pie"),
    ],
}

#: The texts' tables of new abbreviations: (abbreviation, name) pairs, as printed (OCR slips included).
TABLES: dict[str, list[tuple[str, str]]] = {
    "cline5": [
        ("Ade", "Aden"), ("Cor", "Corsica"), ("Kuw", "Kuwait"), ("Afg", "Afghanistan"), ("Cre", "Crete"),
        ("Leb", "Lebanon"), ("Ale", "Alexandretta"), ("Cro", "Croatia"), ("Lib", "Libya"), ("Alg", "Algeria"),
        ("Egy", "Egypt"), ("Mor", "Morocco"), ("ANT", "Antarctic Sea"), ("Geo", "Georgia"), ("PER", "Persian Gulf"),
        ("Ara", "Arabia"), ("GOS", "Gulf of Sirte"), ("Sah", "Sahara"), ("Ark", "Arkangel"), ("IND", "Indian Ocean"),
        ("SAO", "South Atlantic Ocean"), ("Bln", "Baluchistan"), ("Ire", "Ireland"), ("Sic", "Sicily"),
        ("CaI", "Canary Islands"), ("Irn", "Iran"), ("SMS", "Southern Mediterranean"), ("Irq", "Iraq"),
        ("Sud", "Sudan"), ("CAS", "Caspian Sea"), ("Jor", "Jordan"), ("Waf", "West Africa"), ("Cat", "Catalonia"),
        ("Kaz", "Kazakhstan"), ("WAO", "West Atlantic Ocean"), ("Zar", "Zara"),
    ],
    "cline6": [
        ("Ade", "Aden"), ("Ale", "Alexandretta"), ("ANT", "Antartic Sea"), ("Bln", "Baluchistan"),
        ("CaI", "Canary Islands"), ("CAS", "Caspian Sea"), ("Cor", "Corsica"), ("Cro", "Croatia"), ("Geo", "Georgia"),
        ("IND", "Indian Ocean"), ("Irn", "Iran"), ("Jer", "Jerusalem"), ("Kuw", "Kuwait"), ("Lib", "Libya"),
        ("Mil", "Milan"), ("PER", "Persian Gulf"), ("SAO", "South Atlantic Ocean"), ("SMS", "Southern Mediterranean"),
        ("Teh", "Tehran"), ("Ven", "Venete"), ("WAO", "West Atlantic Ocean"), ("Zad", "Zadar"), ("Afg", "Afghanistan"),
        ("Alg", "Algiers"), ("Ark", "Arkangel"), ("Cab", "Casablanca"), ("Cat", "Catalonia"), ("Cre", "Crete"),
        ("Egy", "Egypt"), ("GOS", "Gulf of Sirle"), ("Ire", "Ireland"), ("Irq", "Iraq"), ("Kaz", "Kazakhstan"),
        ("Leb", "Lebon"), ("Mec", "Mecca"), ("Oma", "Oman"), ("Sah", "Sahara"), ("Sic", "Sicily"), ("Sud", "Sudan"),
        ("Ura", "Urals"), ("Waf", "West Africa"), ("Whr", "White Russia"),
    ],
}

#: Both tables also list "Cas Castille" beside "CAS Caspian Sea": names are matched without regard to case,
#: so "Cas" is the Caspian and Castille is "cst" (maps/cline5.md, Id clash).
CASTILLE = ("Cas", "Castille")

#: Every order of Coast-Running's examples, as printed (a unit may be prefixed by its power's initial), but for
#: one OCR slip: the convoy order "F Nth (e) A Yor-Holl" is printed with "(e)" for "(c)" (a lone "e" is not
#: taken for a convoy: it reads as "east" as well).
COAST_RUNNING_EXAMPLES = """
F Lon (S) F Nth. A Yor-Holl. F Nth (c) A Yor-Holl. F Helg (s) A Yor-Holl. F Holl-Nth. F Bel (s) F Holl-Nth.
F Ion-WMed. A Tun P F Ion-WMed. F Edi-Nat. A Cly P F Edi-Nat. F Tri-Ion. A Ven P F Tri-Ion. A Apu P F Tri-Ion.
F StP nc - E.C. A Nwy P F StP-EC. A Lon P F StP-EC. F Bal-Nth. A Kie P F Bal-Nth. A Holl P F Bal-Nth.
F Rum-Gre. A Bul P F Rum-Gre. A Con P F Rum-Gre.
IF Ion-WMed. IA Tun P IF Ion-WMed. FF Mid-WMed. RF Bla-Aeg. TA Con P RF Bla-Aeg. TF Smy (S) RF Bla-Aeg. AF Aeg (h).
AF Alb-Aeg. AA Gre P AF Alb-Aeg. TA Bul-Gre. FF Pic-Nth. FA Bel P FF Pic-Nth. GA Ruh-Bel. GF Holl (S) GA Ruh-Bel.
GF Helg-Bal. GA Kie P GF Helg-Bal. GA Den P GF Helg-Bal. EF Nth-Den. RF Swe (S) EF Nth-Den.
FF Mar-Mid. FA Spa P FF Mar-Mid. EF Por-Spa. EF Mid (s) EF Por-Spa.
"""


@pytest.mark.parametrize(
    ("variant", "spelling", "province"), [(v, s, p) for v, pairs in SPELLINGS.items() for s, p in pairs]
)
def test_the_texts_spellings_name_their_provinces(variant: str, spelling: str, province: str) -> None:
    assert load_variant(variant).lookup(spelling) == province


@pytest.mark.parametrize(("variant", "abbrev", "name"), [(v, a, n) for v, pairs in TABLES.items() for a, n in pairs])
def test_the_texts_abbreviation_tables_parse(variant: str, abbrev: str, name: str) -> None:
    v = load_variant(variant)
    assert v.lookup(name) is not None, name
    assert v.lookup(abbrev) == v.lookup(name)


@pytest.mark.parametrize("variant", ["cline5", "cline6"])
def test_castille_and_the_caspian(variant: str) -> None:
    v = load_variant(variant)
    assert (v.lookup(CASTILLE[0]), v.lookup(CASTILLE[1]), v.lookup("Caspian Sea")) == ("cas", "cst", "cas")


def _examples() -> list[str]:
    return [o.strip() for o in re.split(r"\.\s+", COAST_RUNNING_EXAMPLES.strip().rstrip(".")) if o.strip()]


@pytest.mark.parametrize("text", _examples())
def test_every_order_of_coast_runnings_examples_parses(text: str) -> None:
    """Each order with its units on the board; the power initial before a unit ("IF Ion") is the zine's
    notation for whose unit it is, and is taken off (the order is given as that power's)."""
    v = load_variant("coast_running")
    written = re.sub(r"\b[EFGIART]([AF]) ", r"\1 ", text)
    units = {}
    for t, place in re.findall(r"\b([AF]) ((?:StP nc)|[A-Z][A-Za-z.]*)", written):
        loc = "stp/nc" if place == "StP nc" or (t == "F" and place == "StP") else v.lookup(place)
        assert loc is not None, place
        units[loc.partition("/")[0]] = Unit("england", t, loc)
    order = parse_order(written, v, units, power="england")
    assert order.unit == units[next(iter(units))]  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "dest"), [("F(BLA)-Sev", "sev"), ("F(Sev)-Mos", "mos"), ("F(Mos)-CAS", "cas")])
def test_cline_vs_volga_examples_parse_as_printed(text: str, dest: str) -> None:
    """V r.6c: "(eg. F(BLA)-Sev; F(Sev)-Mos; F(Mos)-CAS;)"."""
    v = load_variant("cline5")
    src = v.lookup(text[2:5])
    assert src is not None
    order = parse_order(text, v, {src: Unit("russia", "F", src)}, power="russia")
    assert (order.unit.province, order.dest) == (src, dest)  # type: ignore[union-attr]
