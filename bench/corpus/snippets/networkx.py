"""Ordinary code that makes NetworkX raise."""

LIBRARY = "networkx"

SNIPPETS = [
    """
    import networkx as nx
    G = nx.Graph([(1, 2), (3, 4)])
    nx.shortest_path(G, 1, 4)
    """,
    """
    import networkx as nx
    G = nx.path_graph(5)
    nx.shortest_path(G, 0, 99)
    """,
    """
    import networkx as nx
    G = nx.path_graph(5)
    G.remove_node(7)
    """,
    """
    import networkx as nx
    G = nx.path_graph(5)
    G.remove_edge(1, 3)
    """,
    """
    import networkx as nx
    G = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")])
    list(nx.topological_sort(G))
    """,
    """
    import networkx as nx
    G = nx.DiGraph([("a", "b"), ("b", "c")])
    nx.find_cycle(G)
    """,
    """
    import networkx as nx
    G = nx.complete_graph(3)
    nx.bipartite.sets(G)
    """,
    """
    import networkx as nx
    G = nx.Graph()
    G.add_edge(None, "router")
    """,
    """
    import networkx as nx
    G = nx.Graph([(1, 2), (3, 4)])
    nx.diameter(G)
    """,
    """
    import networkx as nx
    G = nx.path_graph(4)
    list(nx.eulerian_circuit(G))
    """,
    """
    import networkx as nx
    G = nx.path_graph(4)
    list(nx.topological_sort(G))
    """,
    """
    import networkx as nx
    nx.parse_edgelist(["1 2 3"])
    """,
    """
    import networkx as nx
    nx.barabasi_albert_graph(3, 5)
    """,
    """
    import networkx as nx
    nx.random_regular_graph(3, 5, seed=1)
    """,
    """
    import networkx as nx
    G = nx.cycle_graph(4)
    nx.minimum_spanning_tree(G, algorithm="fancy")
    """,
    """
    import networkx as nx
    G = nx.path_graph(3)
    nx.to_numpy_array(G, nodelist=[0, 1, 1])
    """,
    """
    import networkx as nx
    G = nx.freeze(nx.path_graph(3))
    G.add_node(10)
    """,
    """
    import networkx as nx
    G = nx.DiGraph([(1, 2)])
    nx.ancestors(G, 99)
    """,
    """
    import networkx as nx
    G = nx.path_graph(3)
    nx.single_source_shortest_path_length(G, "hub")
    """,
    """
    import networkx as nx
    nx.power(nx.path_graph(3), 0)
    """,
    """
    import networkx as nx
    G = nx.DiGraph([(1, 2), (2, 1)])
    nx.dag_longest_path(G)
    """,
    """
    import networkx as nx
    G = nx.Graph()
    G.add_weighted_edges_from([(1, 2, -3), (2, 3, 1)])
    nx.dijkstra_path(G, 1, 3)
    """,
    """
    import networkx as nx
    nx.parse_gml("graph [ node [ id 1 ] node [ id 1 ] ]")
    """,
    """
    import networkx as nx
    G = nx.path_graph(4)
    nx.relabel_nodes(G, {0: 1, 1: 0}, copy=False).add_edge(None, 1)
    """,
    """
    import networkx as nx
    G = nx.Graph([(1, 2)])
    nx.astar_path(G, 1, 42)
    """,
    """
    import networkx as nx
    nx.is_connected(nx.Graph())
    """,
    """
    import networkx as nx
    G = nx.Graph([(1, 2), (2, 3)])
    nx.bellman_ford_path(G, 1, 9)
    """,
    """
    import networkx as nx
    nx.complete_bipartite_graph(2, 2).nodes[9]
    """,
    """
    import networkx as nx
    G = nx.MultiGraph([(1, 2), (1, 2), (2, 3)])
    nx.k_core(G)
    """,
    """
    import networkx as nx
    nx.average_clustering(nx.Graph())
    """,
    """
    import networkx as nx
    nx.from_edgelist([(1, 2, 3, 4)])
    """,
    """
    import networkx as nx
    nx.convert_node_labels_to_integers(nx.path_graph(3), ordering="random")
    """,
]
