"""Ordinary code that makes scikit-learn raise."""

LIBRARY = "scikit-learn"

SNIPPETS = [
    """
    from sklearn.linear_model import LinearRegression
    model = LinearRegression()
    model.predict([[1.0, 2.0], [3.0, 4.0]])
    """,
    """
    from sklearn.linear_model import LogisticRegression
    X = [[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]
    y = [0, 1, 1, 0]
    LogisticRegression(C=-1.0).fit(X, y)
    """,
    """
    from sklearn.linear_model import LinearRegression
    X = [1.0, 2.0, 3.0, 4.0]
    y = [2.0, 4.0, 6.0, 8.0]
    LinearRegression().fit(X, y)
    """,
    """
    import numpy as np
    from sklearn.linear_model import LinearRegression
    X = np.array([[1.0, 2.0], [np.nan, 3.0], [4.0, 5.0]])
    y = np.array([1.0, 2.0, 3.0])
    LinearRegression().fit(X, y)
    """,
    """
    from sklearn.linear_model import LinearRegression
    X = [[1.0, 2.0], [2.0, 3.0], [3.0, 4.0]]
    y = [1.0, 2.0]
    LinearRegression().fit(X, y)
    """,
    """
    from sklearn.linear_model import LinearRegression
    X = [[1.0, 2.0], [2.0, 3.0], [3.0, 5.0]]
    y = [1.0, 2.0, 3.0]
    model = LinearRegression().fit(X, y)
    model.predict([[1.0, 2.0, 3.0]])
    """,
    """
    import pandas as pd
    from sklearn.ensemble import RandomForestRegressor
    train = pd.DataFrame({"area": [50, 80, 120, 65], "rooms": [2, 3, 4, 2]})
    model = RandomForestRegressor(n_estimators=5, random_state=0).fit(train, [100, 160, 250, 130])
    test = pd.DataFrame({"rooms": [3], "size": [90]})
    model.predict(test)
    """,
    """
    from sklearn.model_selection import train_test_split
    X = [[i] for i in range(10)]
    y = list(range(10))
    train_test_split(X, y, test_size=1.5)
    """,
    """
    from sklearn.model_selection import train_test_split
    X = [[1], [2], [3]]
    y = [0, 1, 0]
    train_test_split(X, y, train_size=0.1)
    """,
    """
    from sklearn.model_selection import train_test_split
    X = [[1], [2], [3], [4], [5], [6]]
    y = ["cat", "cat", "cat", "dog", "dog", "bird"]
    train_test_split(X, y, test_size=0.5, stratify=y)
    """,
    """
    from sklearn.metrics import accuracy_score
    y_true = [0, 1, 1, 0]
    y_pred = [0.1, 0.8, 0.6, 0.3]
    accuracy_score(y_true, y_pred)
    """,
    """
    from sklearn.linear_model import LogisticRegression
    X = [[1.0], [2.0], [3.0], [4.0]]
    y = [1.5, 2.5, 3.5, 4.5]
    LogisticRegression().fit(X, y)
    """,
    """
    from sklearn.linear_model import LogisticRegression
    X = [[1.0], [2.0], [3.0], [4.0]]
    y = [0, 0, 0, 0]
    LogisticRegression().fit(X, y)
    """,
    """
    from sklearn.cluster import KMeans
    X = [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
    KMeans(n_clusters=10, n_init=1).fit(X)
    """,
    """
    from sklearn.neighbors import KNeighborsClassifier
    X = [[0], [1], [2], [3], [4]]
    y = [0, 0, 1, 1, 1]
    clf = KNeighborsClassifier(n_neighbors=10).fit(X, y)
    clf.predict([[1.5]])
    """,
    """
    import numpy as np
    from sklearn.decomposition import PCA
    X = np.arange(30, dtype=float).reshape(10, 3)
    PCA(n_components=5).fit(X)
    """,
    """
    from sklearn.preprocessing import OneHotEncoder
    enc = OneHotEncoder().fit([["red"], ["green"], ["blue"]])
    enc.transform([["purple"]])
    """,
    """
    from sklearn.preprocessing import LabelEncoder
    le = LabelEncoder().fit(["paris", "tokyo", "rome"])
    le.transform(["paris", "berlin"])
    """,
    """
    from sklearn.pipeline import Pipeline
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler
    pipe = Pipeline([("clf", LogisticRegression()), ("scale", StandardScaler())])
    pipe.fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
    """,
    """
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler, MinMaxScaler
    from sklearn.linear_model import Ridge
    pipe = Pipeline([("scale", StandardScaler()), ("scale", MinMaxScaler()), ("model", Ridge())])
    pipe.fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0])
    """,
    """
    from sklearn.linear_model import Ridge
    model = Ridge()
    model.set_params(alpah=0.5)
    """,
    """
    from sklearn.model_selection import GridSearchCV
    from sklearn.svm import SVC
    search = GridSearchCV(SVC(), param_grid={"C": 1.0, "kernel": ["linear", "rbf"]})
    search.fit([[0], [1], [2], [3]], [0, 1, 0, 1])
    """,
    """
    from sklearn.model_selection import cross_val_score
    from sklearn.linear_model import LinearRegression
    X = [[1.0], [2.0], [3.0], [4.0], [5.0]]
    y = [1.0, 2.0, 3.0, 4.0, 5.0]
    cross_val_score(LinearRegression(), X, y, cv=10)
    """,
    """
    from sklearn.model_selection import KFold
    KFold(n_splits=1)
    """,
    """
    from sklearn.model_selection import StratifiedKFold
    X = [[0], [1], [2], [3]]
    y = [0, 0, 1, 1]
    list(StratifiedKFold(n_splits=5).split(X, y))
    """,
    """
    from sklearn.metrics import mean_squared_error
    mean_squared_error([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0])
    """,
    """
    from sklearn.metrics import confusion_matrix
    confusion_matrix(["cat", "dog", "cat"], ["cat", "cat", "dog"], labels=["bird", "fish"])
    """,
    """
    from sklearn.metrics import f1_score
    y_true = [0, 1, 2, 0, 1, 2]
    y_pred = [0, 2, 1, 0, 0, 1]
    f1_score(y_true, y_pred)
    """,
    """
    from sklearn.metrics import precision_score
    precision_score([0, 1, 1, 0], [0, 1, 0, 0], pos_label=2)
    """,
    """
    import pandas as pd
    from sklearn.compose import ColumnTransformer
    from sklearn.preprocessing import StandardScaler
    df = pd.DataFrame({"age": [20, 30, 40], "income": [1000, 2000, 3000]})
    ct = ColumnTransformer([("num", StandardScaler(), ["age", "salary"])])
    ct.fit(df)
    """,
    """
    import numpy as np
    from sklearn.compose import ColumnTransformer
    from sklearn.preprocessing import StandardScaler
    X = np.array([[20.0, 1000.0], [30.0, 2000.0], [40.0, 3000.0]])
    ct = ColumnTransformer([("num", StandardScaler(), ["age", "income"])])
    ct.fit(X)
    """,
    """
    from sklearn.impute import SimpleImputer
    X = [["a", 1], ["b", None], ["a", 3]]
    SimpleImputer(strategy="mean").fit(X)
    """,
    """
    from sklearn.base import clone
    clone("LogisticRegression")
    """,
    """
    import numpy as np
    from sklearn.linear_model import LinearRegression
    X = np.zeros((4, 2, 2))
    LinearRegression().fit(X, [1.0, 2.0, 3.0, 4.0])
    """,
    """
    import numpy as np
    from sklearn.linear_model import LinearRegression
    X = np.empty((0, 2))
    LinearRegression().fit(X, np.empty(0))
    """,
    """
    import numpy as np
    from sklearn.preprocessing import StandardScaler
    X = np.array([[1.0, 2.0], [np.inf, 3.0]])
    StandardScaler().fit(X)
    """,
    """
    import numpy as np
    from sklearn.linear_model import Ridge
    X = np.array([[1.0], [2.0], [3.0]])
    y = np.array([1.0, np.nan, 3.0])
    Ridge().fit(X, y)
    """,
    """
    from sklearn.svm import SVC
    X = [[0.0], [1.0], [2.0], [3.0]]
    clf = SVC().fit(X, [0, 0, 1, 1])
    clf.predict_proba([[1.5]])
    """,
    """
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.linear_model import LogisticRegression
    pipe = make_pipeline(StandardScaler(), LogisticRegression())
    pipe = pipe.fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
    pipe.transform([[1.0]])
    """,
    """
    from sklearn.preprocessing import LabelEncoder
    le = LabelEncoder().fit([10, 20, 30])
    le.inverse_transform([0, 1, 5])
    """,
    """
    from sklearn.model_selection import cross_val_score
    from sklearn.tree import DecisionTreeClassifier
    X = [[0], [1], [2], [3], [4], [5]]
    y = [0, 1, 0, 1, 0, 1]
    cross_val_score(DecisionTreeClassifier(), X, y, cv=2, scoring="accurcy")
    """,
    """
    from sklearn.preprocessing import MinMaxScaler
    MinMaxScaler(feature_range=(1, 0)).fit([[1.0], [2.0], [3.0]])
    """,
    """
    from sklearn.datasets import make_classification
    make_classification(n_samples=100, n_features=4, n_informative=3, n_redundant=2)
    """,
    """
    from sklearn.feature_extraction.text import TfidfVectorizer
    docs = ["the and of", "and the", "of the"]
    TfidfVectorizer(stop_words="english").fit(docs)
    """,
    """
    from sklearn.feature_extraction.text import CountVectorizer
    docs = ["apples and pears", "pears and plums", "plums"]
    CountVectorizer(min_df=3, max_df=1).fit(docs)
    """,
    """
    from sklearn.feature_extraction.text import CountVectorizer
    CountVectorizer().fit("the quick brown fox jumps over the lazy dog")
    """,
    """
    from sklearn.feature_extraction.text import CountVectorizer
    vec = CountVectorizer()
    vec.transform(["hello world"])
    """,
    """
    from sklearn.metrics import silhouette_score
    X = [[0.0, 0.0], [0.1, 0.1], [5.0, 5.0], [5.1, 5.1]]
    silhouette_score(X, [0, 0, 0, 0])
    """,
    """
    from sklearn.naive_bayes import GaussianNB
    X = [[0.0], [1.0], [2.0], [3.0]]
    GaussianNB(priors=[0.3, 0.3]).fit(X, [0, 0, 1, 1])
    """,
    """
    from sklearn.linear_model import Ridge
    X = [[0.0], [1.0], [2.0], [3.0]]
    Ridge().fit(X, [0.0, 1.0, 2.0, 3.0], sample_weight=[1.0, 1.0, 2.0])
    """,
    """
    from sklearn.preprocessing import OrdinalEncoder
    enc = OrdinalEncoder().fit([["low", "S"], ["high", "M"], ["medium", "L"]])
    enc.transform([["low", "XL"]])
    """,
    """
    from sklearn.model_selection import train_test_split
    X = [[1], [2], [3], [4], [5], [6]]
    y = [0, 1, 0, 1, 0, 1]
    train_test_split(X, y, test_size=0.5, shuffle=False, stratify=y)
    """,
    """
    from sklearn.model_selection import ParameterGrid
    list(ParameterGrid({"C": [], "kernel": ["rbf"]}))
    """,
    """
    import numpy as np
    from sklearn.manifold import TSNE
    X = np.arange(20, dtype=float).reshape(10, 2)
    TSNE(perplexity=30).fit_transform(X)
    """,
    """
    from sklearn.model_selection import LeaveOneGroupOut
    X = [[0], [1], [2], [3]]
    list(LeaveOneGroupOut().split(X, [0, 1, 0, 1]))
    """,
    """
    import scipy.sparse as sp
    from sklearn.preprocessing import StandardScaler
    X = sp.csr_matrix([[0.0, 1.0], [2.0, 0.0], [0.0, 3.0]])
    StandardScaler().fit(X)
    """,
    """
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    X = [[0.0, 1.0, 2.0], [1.0, 0.0, 2.0], [2.0, 2.0, 0.0], [3.0, 1.0, 1.0]]
    LinearDiscriminantAnalysis(n_components=2).fit(X, [0, 0, 1, 1])
    """,
    """
    from sklearn.metrics.pairwise import euclidean_distances
    euclidean_distances([[0.0, 1.0], [1.0, 1.0]], [[0.0, 1.0, 2.0]])
    """,
    """
    from sklearn.metrics.pairwise import cosine_similarity
    cosine_similarity([[1.0, 0.0, 2.0]], [[1.0, 1.0]])
    """,
    """
    from sklearn.model_selection import TimeSeriesSplit
    X = [[0], [1], [2], [3], [4]]
    list(TimeSeriesSplit(n_splits=10).split(X))
    """,
    """
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.linear_model import LinearRegression
    pipe = Pipeline([("scale", StandardScaler()), ("model", LinearRegression)])
    pipe.fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0])
    """,
    """
    from sklearn.svm import SVC
    X = [[0.0], [1.0], [2.0]]
    SVC().fit(X, [1, 1, 1])
    """,
    """
    from sklearn.metrics import roc_curve
    roc_curve([0, 1, 2, 1], [0.2, 0.4, 0.6, 0.9])
    """,
    """
    from sklearn.metrics import mean_squared_log_error
    mean_squared_log_error([3.0, -5.0, 2.5], [2.5, 0.0, 2.0])
    """,
    """
    from sklearn.dummy import DummyClassifier
    DummyClassifier(strategy="constant").fit([[0.0], [1.0]], ["spam", "ham"])
    """,
    """
    from sklearn.linear_model import LogisticRegression
    X = [[0.0], [1.0], [2.0], [3.0]]
    LogisticRegression(penalty="l1", solver="lbfgs").fit(X, [0, 0, 1, 1])
    """,
    """
    from sklearn.model_selection import GridSearchCV
    from sklearn.linear_model import Ridge
    from sklearn.mixture import GaussianMixture
    GaussianMixture(n_components=5).fit([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    """,
    """
    from sklearn.model_selection import GridSearchCV
    from sklearn.linear_model import Ridge
    X = [[0.0], [1.0], [2.0], [3.0]]
    search = GridSearchCV(Ridge(), {"alpha": [0.1, 1.0]}, cv=2, refit=False).fit(X, [0.0, 1.0, 2.0, 3.0])
    search.predict([[1.5]])
    """,
    """
    from sklearn.preprocessing import PolynomialFeatures
    PolynomialFeatures(degree=(3, 1)).fit([[1.0, 2.0]])
    """,
    """
    from sklearn.utils import resample
    resample([1, 2, 3], [4, 5, 6], replace=False, n_samples=5)
    """,
    """
    from sklearn.metrics import classification_report
    classification_report([0, 1, 2, 1], [0, 1, 2, 2], target_names=["ham", "spam"])
    """,
    """
    from sklearn.metrics import log_loss
    log_loss([0, 1, 2], [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7]])
    """,
    """
    from sklearn.preprocessing import StandardScaler
    scaler = StandardScaler().fit([[1.0, 2.0], [3.0, 4.0]])
    scaler.inverse_transform([[1.0, 2.0, 3.0]])
    """,
    """
    from sklearn.cluster import AgglomerativeClustering
    model = AgglomerativeClustering(n_clusters=2, metric="manhattan", linkage="ward")
    model.fit([[0.0, 0.0], [1.0, 1.0], [5.0, 5.0]])
    """,
    """
    from sklearn.model_selection import cross_validate
    from sklearn.linear_model import LinearRegression
    X = [[0.0], [1.0], [2.0], [3.0]]
    cross_validate(LinearRegression(), X, [0.0, 1.0, 2.0, 3.0], cv=2, groups=[0, 0, 1])
    """,
    """
    from sklearn.model_selection import GroupKFold
    X = [[0], [1], [2], [3]]
    list(GroupKFold(n_splits=3).split(X, [0, 1, 0, 1], groups=[1, 1, 2, 2]))
    """,
    """
    from sklearn.preprocessing import OneHotEncoder
    enc = OneHotEncoder(sparse_output=False).fit([["S"], ["M"]])
    enc.inverse_transform([[1.0, 0.0, 0.0]])
    """,
    """
    from sklearn.linear_model import Ridge
    Ridge(solver="lbfgs").fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0])
    """,
    """
    from sklearn.linear_model import SGDClassifier
    clf = SGDClassifier()
    clf.partial_fit([[0.0], [1.0], [2.0]], [0, 1, 0])
    """,
    """
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.linear_model import LogisticRegression
    pipe = make_pipeline(StandardScaler(), LogisticRegression())
    pipe.fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1], sample_weight=[1.0, 1.0, 2.0, 2.0])
    """,
    """
    from sklearn.preprocessing import OneHotEncoder
    OneHotEncoder(drop=["XXL"]).fit([["S"], ["M"], ["L"]])
    """,
    """
    from sklearn.tree import DecisionTreeClassifier, export_text
    tree = DecisionTreeClassifier().fit([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], [0, 1, 1])
    export_text(tree, feature_names=["height"])
    """,
    """
    from sklearn.neighbors import NearestNeighbors
    nn = NearestNeighbors().fit([[0.0], [1.0], [2.0]])
    nn.kneighbors([[1.0]], n_neighbors=0)
    """,
    """
    from sklearn.ensemble import VotingClassifier
    VotingClassifier(estimators=[]).fit([[0.0], [1.0]], [0, 1])
    """,
    """
    from sklearn.cluster import KMeans
    KMeans(n_clusters=2, n_init=1).fit([["red", "small"], ["blue", "large"], ["red", "large"]])
    """,
    """
    import numpy as np
    from sklearn.linear_model import LinearRegression
    X = np.array([[1 + 2j], [2 + 1j], [3 + 0j]])
    LinearRegression().fit(X, [1.0, 2.0, 3.0])
    """,
    """
    from sklearn.ensemble import BaggingClassifier
    X = [[0.0], [1.0], [2.0], [3.0]]
    BaggingClassifier(max_samples=10, bootstrap=False).fit(X, [0, 0, 1, 1])
    """,
    """
    from sklearn.preprocessing import KBinsDiscretizer
    KBinsDiscretizer(n_bins=[3, 1], encode="ordinal").fit([[0.0, 1.0], [1.0, 2.0], [2.0, 3.0]])
    """,
    """
    from sklearn.preprocessing import LabelBinarizer
    LabelBinarizer().fit([[0.5, 1.5], [2.5, 3.5]])
    """,
    """
    from sklearn.metrics import roc_auc_score
    roc_auc_score([0, 1, 2, 1], [[0.2, 0.5, 0.3], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.2, 0.6, 0.2]])
    """,
    """
    from sklearn.metrics import mean_absolute_error
    mean_absolute_error([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]])
    """,
    """
    from sklearn.metrics import get_scorer
    get_scorer("f1-score")
    """,
]
