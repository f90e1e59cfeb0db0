"""Ordinary code that makes numpy raise."""

LIBRARY = "numpy"

SNIPPETS = [
    """
    import numpy as np
    weights = np.zeros(3, dtype=np.float)
    """,
    """
    import numpy as np
    counts = np.array([1, 2, 3]).astype(np.int)
    """,
    """
    import numpy as np
    missing = np.NaN
    """,
    """
    import numpy as np
    a = np.arange(6).reshape(2, 3)
    np.pad(a, 2, mode="zeros")
    """,
    """
    import numpy as np
    np.pad(np.arange(5), (-1, 2))
    """,
    """
    import numpy as np
    np.split(np.arange(10), 3)
    """,
    """
    import numpy as np
    np.linspace(0.0, 1.0, num=-5)
    """,
    """
    import numpy as np
    data = np.array([1.0, 2.0, 2.5, 3.0, 7.0])
    np.histogram(data, bins=-1)
    """,
    """
    import numpy as np
    data = np.array([1.0, 2.0, 2.5, 3.0, 7.0])
    np.histogram(data, bins=5, range=(10, 0))
    """,
    """
    import numpy as np
    data = np.array([1.0, np.nan, 3.0])
    np.histogram(data, bins=3)
    """,
    """
    import numpy as np
    np.percentile([1, 2, 3, 4], 150)
    """,
    """
    import numpy as np
    np.quantile([1, 2, 3, 4], 1.5)
    """,
    """
    import numpy as np
    np.percentile([1, 2, 3, 4], 50, method="middle")
    """,
    """
    import numpy as np
    a = np.ones((2, 3))
    b = np.ones((2, 4))
    np.einsum("ij,jk->ik", a, b, optimize=True)
    """,
    """
    import numpy as np
    a = np.ones((2, 3))
    np.einsum_path("ij,jk->ik", a)
    """,
    """
    import numpy as np
    with open("points.csv", "w") as f:
        f.write("1,2\\n3,4\\n5,6,7\\n8,9\\n")
    np.genfromtxt("points.csv", delimiter=",")
    """,
    """
    import numpy as np
    with open("values.txt", "w") as f:
        f.write("1 2\\n3 4\\n")
    np.loadtxt("values.txt", ndmin=3)
    """,
    """
    import numpy as np
    x = np.array([0.0, 1.0, 2.0, 3.0])
    y = np.array([1.0, 3.0, 5.0])
    np.polyfit(x, y, 1)
    """,
    """
    import numpy as np
    np.polyfit([0.0, 1.0, 2.0], [1.0, 2.0, 3.0], -1)
    """,
    """
    import numpy as np
    np.testing.assert_allclose([1.0, 2.0, 3.0], [1.0, 2.5, 3.0])
    """,
    """
    import numpy as np
    np.testing.assert_array_equal(np.array([1, 2, 3]), np.array([1, 2]))
    """,
    """
    import numpy as np
    np.testing.assert_equal({"a": 1, "b": 2}, {"a": 1, "b": 3})
    """,
    """
    import numpy as np
    np.testing.assert_almost_equal(3.14159, 3.14, decimal=4)
    """,
    """
    import numpy as np
    np.testing.assert_array_less([1.0, 5.0, 3.0], [2.0, 4.0, 4.0])
    """,
    """
    import numpy as np
    np.testing.assert_string_equal("hello world\\n", "hello there\\n")
    """,
    """
    import numpy as np
    np.stack([np.zeros(3), np.zeros(4)])
    """,
    """
    import numpy as np
    np.stack([])
    """,
    """
    import numpy as np
    np.block([[np.ones(2), np.ones(2)], np.ones(4)])
    """,
    """
    import numpy as np
    a = np.zeros((2, 3, 4))
    np.moveaxis(a, [0, 1], [2])
    """,
    """
    import numpy as np
    np.tensordot(np.ones((2, 3)), np.ones((4, 5)), axes=1)
    """,
    """
    import numpy as np
    np.cross([1, 2, 3, 4], [4, 5, 6, 7])
    """,
    """
    import numpy as np
    np.convolve([1.0, 2.0, 3.0], [])
    """,
    """
    import numpy as np
    np.array_split(np.arange(9), 0)
    """,
    """
    import numpy as np
    np.diff([1, 4, 9, 16], n=-1)
    """,
    """
    import numpy as np
    np.gradient(np.array([5.0]))
    """,
    """
    import numpy as np
    np.average([1.0, 2.0, 3.0], weights=[0.0, 0.0, 0.0])
    """,
    """
    import numpy as np
    np.average(np.ones((3, 2)), weights=[0.2, 0.3, 0.5])
    """,
    """
    import numpy as np
    x = np.linspace(-2, 2, 5)
    np.piecewise(x, [x < 0, x >= 0], [lambda v: -v])
    """,
    """
    import numpy as np
    x = np.arange(6)
    np.select([x < 2, x > 4], [x * 10])
    """,
    """
    import numpy as np
    np.insert(np.array([1, 2, 3]), 10, 99)
    """,
    """
    import numpy as np
    from numpy.lib.stride_tricks import sliding_window_view
    sliding_window_view(np.arange(5), 10)
    """,
    """
    import numpy as np
    np.linalg.inv(np.array([[1.0, 2.0], [2.0, 4.0]]))
    """,
    """
    import numpy as np
    np.linalg.inv(np.ones((2, 3)))
    """,
    """
    import numpy as np
    np.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]))
    """,
    """
    import numpy as np
    np.linalg.norm(np.array([3.0, 4.0]), ord="fro")
    """,
    """
    import numpy as np
    np.linalg.matrix_power(np.eye(2), 0.5)
    """,
    """
    import numpy as np
    np.linalg.eig(np.array([1.0, 2.0, 3.0]))
    """,
    """
    import numpy as np
    np.fft.fft(np.ones(8), n=0)
    """,
    """
    import numpy as np
    np.fft.fftn(np.ones((4, 4)), s=(4, 4, 4), axes=(0, 1))
    """,
    """
    import numpy as np
    np.savetxt("out.txt", np.ones((2, 3)), fmt="%d %d")
    """,
    """
    import numpy as np
    np.save("objects.npy", np.array([{"a": 1}, None], dtype=object))
    np.load("objects.npy")
    """,
    """
    import numpy as np
    with open("notes.txt", "w") as f:
        f.write("these are not numbers at all\\n")
    np.load("notes.txt")
    """,
    """
    import numpy as np
    np.load("does_not_exist.npy")
    """,
    """
    import numpy as np
    np.asfarray([1, 2, 3])
    """,
    """
    import numpy as np
    data = np.ma.array([1.0, 2.0], mask=[True, False, False])
    """,
    """
    import numpy as np
    np.rec.fromarrays([np.arange(3), np.arange(4)], names="x,y")
    """,
    """
    from numpy.polynomial import Polynomial, Chebyshev
    Polynomial([1, 2]) + Chebyshev([1, 2])
    """,
    """
    from numpy.polynomial import polynomial as P
    P.polyfit([0.0, 1.0, 2.0], [1.0, 2.0, 3.0], -2)
    """,
    """
    import numpy as np
    np.set_printoptions(precision="3")
    """,
    """
    import numpy as np
    np.set_printoptions(sign="always")
    """,
    """
    import numpy as np
    np.format_float_positional(3.14159, precision=-2)
    """,
    """
    import numpy as np
    np.base_repr(255, base=40)
    """,
    """
    import numpy as np
    np.histogram2d([1.0, 2.0, 3.0], [4.0, 5.0])
    """,
    """
    import numpy as np
    np.digitize([1.5, 2.5], bins=[1.0, 3.0, 2.0])
    """,
    """
    import numpy as np
    np.lib.NumpyVersion("latest")
    """,
    """
    import numpy as np
    from numpy.lib import recfunctions as rfn
    rfn.structured_to_unstructured(np.arange(6).reshape(2, 3))
    """,
    """
    import numpy as np
    np.memmap("data.bin", dtype="float32", mode="rw", shape=(4,))
    """,
    """
    import numpy as np
    np.ix_(np.array([[0, 1], [1, 0]]), np.array([0, 2]))
    """,
    """
    import numpy as np
    np.rot90(np.ones((2, 3)), axes=(1, 1))
    """,
    """
    import numpy as np
    np.trim_zeros(np.array([0, 0, 1, 2, 0]), trim="both")
    """,
    """
    import numpy as np
    np.cov([[1.0, 2.0, 3.0], [2.0, 1.0, 0.0]], fweights=[1.5, 2.0, 1.0])
    """,
    """
    import numpy as np
    np.histogram_bin_edges([1.0, 2.0, 3.0, 4.0], bins="magic")
    """,
    """
    import numpy as np
    np.histogram([1.0, 2.0, 3.0, 4.0], bins=2, weights=[1.0, 2.0])
    """,
    """
    import numpy as np
    np.nanargmin(np.array([np.nan, np.nan, np.nan]))
    """,
    """
    import numpy as np
    np.meshgrid(np.arange(3), np.arange(2), indexing="yx")
    """,
    """
    import numpy as np
    np.fill_diagonal(np.zeros(5), 1.0)
    """,
    """
    import numpy as np
    np.diag_indices_from(np.zeros((3, 4)))
    """,
    """
    import numpy as np
    np.pad(np.zeros((0, 3)), 1, mode="reflect")
    """,
    """
    import numpy as np
    np.resize(np.arange(4), (2, -1))
    """,
    """
    import numpy as np
    np.expand_dims(np.arange(3), (0, 0))
    """,
    """
    import numpy as np
    with open("values.csv", "w") as f:
        f.write("1,,2\\n3,,4\\n")
    np.loadtxt("values.csv", delimiter=",,")
    """,
    """
    import numpy as np
    np.apply_along_axis(np.sum, 1, np.zeros((0, 3)))
    """,
    """
    import numpy as np
    with open("table.csv", "w") as f:
        f.write("name,score\\nann,10\\nbob,12\\n")
    np.genfromtxt("table.csv", delimiter=",", names=True, usecols=("name", "points"))
    """,
    """
    import numpy as np
    np.seterr(divide="loud")
    """,
    """
    import numpy as np
    np.testing.assert_approx_equal(1.0001, 1.0002, significant=7)
    """,
    """
    import numpy as np
    np.testing.assert_array_almost_equal([1.0, 2.0], [1.0, 2.1], decimal=3)
    """,
    """
    import numpy as np
    np.in1d([1, 2, 3], [2])
    """,
    """
    import numpy as np
    np.trapz([1.0, 2.0, 3.0])
    """,
    """
    import numpy as np
    np.require(np.arange(3), requirements=["Q"])
    """,
    """
    import numpy as np
    a = np.arange(6).reshape(2, 3)
    np.delete(a, 5, axis=1)
    """,
    """
    import numpy as np
    np.interp([1.5], [1.0, 2.0], [10.0, 20.0], period=0)
    """,
    """
    import numpy as np
    np.product([1, 2, 3])
    """,
    """
    import numpy as np
    np.lib.pad(np.ones(3), 1)
    """,
    """
    import numpy as np
    np.genfromtxt("measurements.txt")
    """,
    """
    import numpy as np
    np.savez("arrays.npz", temperature=np.ones(3))
    data = np.load("arrays.npz")
    data["pressure"]
    """,
    """
    import numpy as np
    np.savez("arrays.npz", np.ones(3), arr_0=np.zeros(3))
    """,
    """
    import numpy as np
    from numpy.polynomial import Polynomial
    Polynomial.fit([0.0, 1.0, 2.0], [1.0, 2.0], deg=1)
    """,
    """
    import numpy as np
    np.roots([[1, 2], [3, 4]])
    """,
    """
    import numpy as np
    scores = np.ma.masked_array([10, 20, 30], mask=[False, True, False])
    scores.filled("N/A")
    """,
    """
    import numpy as np
    people = np.rec.fromrecords([("ann", 31), ("bob", 25)], names="name,age")
    people.height
    """,
    """
    import numpy as np
    np.char.center(np.array(["title"]), 11, fillchar="=-")
    """,
    """
    import numpy as np
    np.broadcast_arrays(np.ones(3), np.ones(4))
    """,
    """
    import numpy as np
    a = np.array([[3, 1], [2, 4]])
    np.take_along_axis(a, np.argsort(a, axis=None), axis=0)
    """,
    """
    import numpy as np
    np.isin([1, 2, 3], [2], kind="hash")
    """,
    """
    import numpy as np
    np.nanpercentile([1.0, np.nan, 3.0], 101)
    """,
    """
    import numpy as np
    np.cov([1.0, 2.0, 4.0], aweights=[1.0, -1.0, 1.0])
    """,
    """
    import numpy as np
    np.quantile([1.0, 2.0, 3.0], 0.5, weights=[1.0, 2.0, 1.0])
    """,
    """
    import numpy as np
    np.histogram([1.0, 2.0, 3.0], bins=2.5)
    """,
    """
    import numpy as np
    np.histogram([1.0, 2.0, 3.0], bins=[3.0, 2.0, 1.0])
    """,
    """
    import numpy as np
    np.einsum("ij,jk->il", np.ones((2, 3)), np.ones((3, 4)), optimize=True)
    """,
    """
    import numpy as np
    np.einsum("i2,j->ij", np.ones(2), np.ones(3), optimize=True)
    """,
    """
    import numpy as np
    np.einsum("ij->ji->ij", np.ones((2, 3)), optimize=True)
    """,
    """
    import numpy as np
    np.testing.assert_allclose([np.nan, 1.0], [1.0, 1.0])
    """,
    """
    import numpy as np
    np.testing.assert_array_max_ulp(np.float64(1.0), np.float64(1.0001))
    """,
    """
    import numpy as np
    np.binary_repr(-5, width=2)
    """,
    """
    import numpy as np
    np.r_["rows", [1, 2], [3, 4]]
    """,
    """
    import numpy as np
    np.pad(np.ones(3), 2, mode="edge", constant_values=5)
    """,
    """
    import numpy as np
    np.vsplit(np.arange(4), 2)
    """,
    """
    import numpy as np
    np.dsplit(np.ones((2, 2)), 2)
    """,
    """
    import numpy as np
    np.hstack(row for row in [np.ones(2), np.zeros(2)])
    """,
    """
    import numpy as np
    np.block((np.ones(2), np.zeros(2)))
    """,
    """
    import numpy as np
    np.block([[], []])
    """,
    """
    import numpy as np
    np.geomspace(0, 1000, num=4)
    """,
    """
    import numpy as np
    np.astype([1, 2, 3], np.float32)
    """,
    """
    import numpy as np
    np.finfo(np.int32)
    """,
    """
    import numpy as np
    np.iinfo(np.float32)
    """,
    """
    import numpy as np
    np.asmatrix("1 2; 3")
    """,
    """
    import numpy as np
    np.tril_indices_from(np.ones(3))
    """,
    """
    import numpy as np
    np.diag(np.ones((2, 2, 2)))
    """,
    """
    import numpy as np
    np.vander(np.ones((2, 2)))
    """,
    """
    import numpy as np
    np.histogramdd(np.ones((3, 2)), bins=2, range=[(0, 1)])
    """,
    """
    import numpy as np
    np.delete(np.arange(3), [True, False])
    """,
    """
    import numpy as np
    np.asarray_chkfinite([1.0, np.nan, 3.0])
    """,
    """
    import numpy as np
    np.average(np.ones((2, 3)), axis=1, weights=[1.0, 2.0])
    """,
    """
    import numpy as np
    np.gradient(np.arange(5.0), edge_order=3)
    """,
    """
    import numpy as np
    np.gradient(np.arange(5.0), [0.0, 1.0, 2.0])
    """,
    """
    import numpy as np
    np.digitize([1 + 2j], [1.0, 2.0])
    """,
    """
    import numpy as np
    np.linalg.lstsq(np.ones((3, 2)), np.ones(4))
    """,
    """
    import numpy as np
    np.linalg.multi_dot([np.ones((2, 2))])
    """,
    """
    import numpy as np
    np.linalg.qr(np.ones((3, 2)), mode="thin")
    """,
    """
    import numpy as np
    np.linalg.eigh(np.eye(2), UPLO="upper")
    """,
    """
    import numpy as np
    np.fft.fft(np.ones(4), norm="unit")
    """,
    """
    import numpy as np
    np.show_config(mode="json")
    """,
    """
    import numpy as np
    np.set_printoptions(threshold="all")
    """,
    """
    import numpy as np
    np.set_printoptions(floatmode="short")
    """,
    """
    import numpy as np
    np.rollaxis(np.ones((2, 3)), 5)
    """,
    """
    import numpy as np
    np.vectorize(lambda x: x.sum(), signature="n->()")
    """,
    """
    import numpy as np
    f = np.vectorize(lambda row: row.sum(), signature="(n)->()")
    f(5)
    """,
    """
    import numpy as np
    np.ediff1d(np.array([1, 2, 4]), to_begin=np.array([0.5]))
    """,
    """
    import numpy as np
    x = np.arange(4)
    np.select([x, x > 2], [x, x * 2])
    """,
    """
    import numpy as np
    np.testing.assert_warns(DeprecationWarning, np.sum, [1, 2])
    """,
]
