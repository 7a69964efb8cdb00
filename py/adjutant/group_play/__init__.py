"""Games played by several people without a server: sealed orders codes and
group links, and Cluster Diplomacy's views and links that keep its secrets. Imports
``adjutant.formats`` and the layers below it.
"""
