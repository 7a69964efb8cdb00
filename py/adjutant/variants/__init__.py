"""The rules each variant plays by: the hooks a variant's own rules fill in, the
rules of each variant that has its own (Cluster Diplomacy), and the registry naming them.
Imports only ``adjutant.adjudication`` and ``adjutant.map`` below it.
"""
