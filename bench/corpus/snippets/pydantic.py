"""Ordinary code that makes pydantic raise."""

LIBRARY = "pydantic"

SNIPPETS = [
    """
    from pydantic import BaseModel
    class Order(BaseModel):
        customer: "Customer"
    Order(customer={"name": "Ada"})
    """,
    """
    from pydantic import BaseModel
    class Order(BaseModel):
        customer: "Customer"
    Order.model_rebuild()
    """,
    """
    from pydantic import BaseModel
    class Point(BaseModel):
        x: int
        @classmethod
        def __modify_schema__(cls, field_schema):
            field_schema.update(type="object")
    """,
    """
    from typing import TypedDict
    from pydantic import TypeAdapter
    class Movie(TypedDict):
        title: str
        year: int
    TypeAdapter(Movie)
    """,
    """
    from pydantic import BaseModel
    class Base(BaseModel):
        status: str = "new"
    class Child(Base):
        status = "archived"
    """,
    """
    from pydantic import BaseModel, Field
    class Item(BaseModel):
        name: str
        price = Field(default=0)
    """,
    """
    from pydantic import BaseModel, ConfigDict
    class Item(BaseModel):
        model_config = ConfigDict(str_strip_whitespace=True)
        name: str
        class Config:
            orm_mode = True
    """,
    """
    from pydantic import BaseModel, Field
    class Item(BaseModel):
        code: str = Field(regex="^[A-Z]{3}$")
    """,
    """
    from pydantic import BaseModel, Field
    class Item(BaseModel):
        tags: list = Field(unique_items=True)
    """,
    """
    from typing import Callable
    from pydantic import BaseModel
    class Job(BaseModel):
        callback: Callable[[int], int]
    Job.model_json_schema()
    """,
    """
    from pydantic import BaseModel
    BaseModel(name="Ada")
    """,
    """
    from pydantic import BaseSettings
    """,
    """
    from pydantic import create_model
    create_model("User", name=(str,))
    """,
    """
    from pydantic import BaseModel, field_validator
    class User(BaseModel):
        name: str
        @field_validator
        def check(cls, v):
            return v
    """,
    """
    from pydantic import BaseModel, field_validator
    class User(BaseModel):
        first: str
        last: str
        @field_validator(["first", "last"])
        @classmethod
        def strip(cls, v):
            return v.strip()
    """,
    """
    from pydantic import BaseModel, root_validator
    class User(BaseModel):
        a: int
        @root_validator()
        def check(cls, values):
            return values
    """,
    """
    from pydantic import BaseModel, field_serializer
    class Event(BaseModel):
        when: int
        @field_serializer("when")
        def ser_a(self, v):
            return v
        @field_serializer("when")
        def ser_b(self, v):
            return v
    """,
    """
    from pydantic import BaseModel, ConfigDict, TypeAdapter
    class Event(BaseModel):
        when: int
    TypeAdapter(Event, config=ConfigDict(strict=True))
    """,
    """
    from pydantic import RootModel, ConfigDict
    class Tags(RootModel[list]):
        model_config = ConfigDict(extra="allow")
    """,
    """
    from pydantic import BaseModel, PrivateAttr
    class Session(BaseModel):
        token: str = PrivateAttr()
    """,
    """
    from pydantic import BaseModel, ConfigDict
    class Account(BaseModel):
        model_config = ConfigDict(frozen=True)
        balance: int
    acct = Account(balance=10)
    acct.balance = 20
    """,
    """
    from pydantic import BaseModel
    class Account(BaseModel):
        balance: int
    acct = Account(balance=10)
    acct.owner = "Ada"
    """,
    """
    from pydantic import BaseModel
    class Account(BaseModel):
        balance: int
    acct = Account(balance=10)
    acct.owner
    """,
    """
    from pydantic import BaseModel, Field
    class Cart(BaseModel):
        items: list = Field(default=[], default_factory=list)
    """,
    """
    from pydantic import BaseModel
    class Account(BaseModel):
        balance: int
    Account[int]
    """,
    """
    from typing import Generic, TypeVar
    from pydantic import BaseModel
    T = TypeVar("T")
    class Box(BaseModel, Generic[T]):
        item: T
    Box[int, str]
    """,
    """
    from pydantic import BaseModel, Field
    class Item(BaseModel):
        kind: str = Field(discriminator="type")
    """,
    """
    from pydantic.color import Color
    Color("blurple")
    """,
    """
    from pydantic import ByteSize
    ByteSize(2048).to("kilobytes")
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        name: str
    Item.parse_raw("name: x", content_type="application/yaml")
    """,
    """
    from pydantic.json import pydantic_encoder
    import json
    json.dumps({"a": object()}, default=pydantic_encoder)
    """,
    """
    from pydantic import BaseModel, validator
    class Item(BaseModel):
        name: str
        @validator
        def check(cls, v):
            return v
    """,
    """
    from pydantic import validate_call
    class Service:
        @validate_call
        @classmethod
        def create(cls, n: int):
            return n
    """,
    """
    from pydantic import RootModel
    class Tags(RootModel[list]):
        extra: str
    """,
    """
    from pydantic import BaseModel, ConfigDict
    class Item(BaseModel):
        model_config = ConfigDict(validate_by_alias=False, validate_by_name=False)
        name: str
    """,
    """
    from pydantic import BaseModel, with_config, ConfigDict
    @with_config(ConfigDict(strict=True))
    class Item(BaseModel):
        name: str
    """,
    """
    from pydantic import BaseModel
    from pydantic.dataclasses import dataclass
    @dataclass
    class Item(BaseModel):
        name: str
    """,
    """
    from pydantic import BaseModel, computed_field
    class Rect(BaseModel):
        w: int
        h: int
        @computed_field
        def area(self):
            return self.w * self.h
    Rect.model_json_schema()
    """,
    """
    from typing import Annotated
    from pydantic import BaseModel, Field
    class Item(BaseModel):
        sku: Annotated[int, Field(pattern=r"^\\d+$")]
    Item(sku=5)
    """,
    """
    from pydantic import TypeAdapter
    from pydantic.json_schema import GenerateJsonSchema
    gen = GenerateJsonSchema()
    TypeAdapter(int).json_schema(schema_generator=gen)
    """,
    """
    from pydantic import BaseModel
    from pydantic.json_schema import GenerateJsonSchema
    class A(BaseModel):
        x: int
    gen = GenerateJsonSchema()
    gen.generate(A.__pydantic_core_schema__)
    gen.generate(A.__pydantic_core_schema__)
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        name: str
    Item.model_validate({"name": "x"}, strict="yes")
    """,
    """
    from pydantic import BaseModel, Field
    class Item(BaseModel):
        name: str = Field(alias=5)
    """,
    """
    from pydantic import BaseModel, PrivateAttr
    class Item(BaseModel):
        _secret: str = PrivateAttr()
    Item()._secret
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        name: str
    Item.model_construct(name="x").model_copy(update=5)
    """,
    """
    from pydantic import conlist
    conlist(int, unique_items=True)
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        name: str
    Item.model_validate_strings(5)
    """,
    """
    from pydantic import BaseModel, Field
    class Item(BaseModel):
        ratio: float = Field(gt="zero")
    Item(ratio=1.0)
    """,
    """
    from typing import Literal, Union
    from pydantic import BaseModel, Field
    class Cat(BaseModel):
        pet_type: Literal["cat"]
    class Dog(BaseModel):
        kind: Literal["dog"]
    class Owner(BaseModel):
        pet: Union[Cat, Dog] = Field(discriminator="pet_type")
    Owner(pet={"pet_type": "cat"})
    """,
    """
    from typing import Literal, Union
    from pydantic import BaseModel, Field
    class Cat(BaseModel):
        pet_type: str
    class Dog(BaseModel):
        pet_type: Literal["dog"]
    class Owner(BaseModel):
        pet: Union[Cat, Dog] = Field(discriminator="pet_type")
    Owner(pet={"pet_type": "cat"})
    """,
    """
    from typing import Literal, Union
    from pydantic import BaseModel, Field
    class Cat(BaseModel):
        pet_type: Literal["cat"] = Field(alias="petType")
    class Dog(BaseModel):
        pet_type: Literal["dog"] = Field(alias="PetType")
    class Owner(BaseModel):
        pet: Union[Cat, Dog] = Field(discriminator="pet_type")
    Owner(pet={"petType": "cat"})
    """,
    """
    from pydantic import BaseModel
    class Connection:
        pass
    class Service(BaseModel):
        conn: Connection
    Service(conn=Connection())
    """,
    """
    from pydantic import BaseModel, Field
    class Item(BaseModel):
        qty: int = Field(max_length=3)
    Item(qty=1)
    """,
    """
    from pydantic import BaseModel, EmailStr
    class Contact(BaseModel):
        email: EmailStr
    Contact(email="a@b.c")
    """,
    """
    from pydantic.dataclasses import dataclass
    from pydantic import ConfigDict
    @dataclass(config=ConfigDict(extra="allow"), init=False)
    class Item:
        name: str
    Item()
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        name: str
    Item(name=5)
    """,
    """
    from pydantic import TypeAdapter
    TypeAdapter(list[int]).validate_python(["1", "two"])
    """,
    """
    import threading
    from pydantic import TypeAdapter
    TypeAdapter(threading.Lock)
    """,
    """
    from pydantic import TypeAdapter
    TypeAdapter("Missing").validate_python(1)
    """,
    """
    from pydantic import validate_call
    @validate_call
    def repeat(text: str, times: int):
        return text * times
    repeat("ab", "three")
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        name: str
    Item.model_validate_json("{'name': 'x'}")
    """,
    """
    from pydantic import AnyUrl
    AnyUrl("not a url")
    """,
    """
    from pydantic import Required
    """,
    """
    from pydantic import ConstrainedInt
    """,
    """
    import pydantic
    pydantic.ValidationErrors
    """,
    """
    from pydantic import BaseModel
    class Tags(BaseModel):
        __root__: list[str]
    """,
    """
    from pydantic import BaseModel, computed_field
    class Rect(BaseModel):
        area: int
        @computed_field
        @property
        def area(self) -> int:
            return 1
    """,
    """
    from typing import Generic, TypeVar
    from pydantic import BaseModel
    T = TypeVar("T")
    class Box(BaseModel, Generic[T]):
        item: T
    Box[int][str]
    """,
    """
    from typing import Callable
    from pydantic import TypeAdapter
    TypeAdapter(Callable[[int], int]).json_schema()
    """,
    """
    from pydantic import validate_call
    @validate_call(validate_return=True)
    def count(items: list) -> int:
        return "many"
    count([1])
    """,
    """
    from pydantic import validate_call
    @validate_call
    class Service:
        def __init__(self, n: int):
            self.n = n
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        model_config: int = 5
    """,
    """
    from pydantic.networks import IPvAnyAddress
    IPvAnyAddress("192.168.1.300")
    """,
    """
    from pydantic.networks import IPvAnyNetwork
    IPvAnyNetwork("10.0.0.0/33")
    """,
    """
    from pydantic.networks import IPvAnyInterface
    IPvAnyInterface("fe80::1/200")
    """,
    """
    from pydantic.color import Color
    Color((300, 0, 0))
    """,
    """
    from pydantic.color import Color
    Color(3.5)
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        name: str
    Item(name="x").model_dump_json(indent="2")
    """,
    """
    from pydantic import BaseModel, field_validator
    class Item(BaseModel):
        name: str
        @field_validator("name", mode="sideways")
        @classmethod
        def check(cls, v):
            return v
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        name: str
    item = Item(name="x")
    del item.name
    del item.name
    """,
    """
    from pydantic import BaseModel, ConfigDict
    class Item(BaseModel):
        model_config = ConfigDict(extra="forbid")
        name: str
    Item(name="x", price=3)
    """,
    """
    from pydantic import BaseModel, PrivateAttr
    class Item(BaseModel):
        _cache: dict = PrivateAttr(default={}, default_factory=dict)
    """,
    """
    from pydantic import BaseModel, Field
    class Item(BaseModel):
        name: str = Field(default_factory="unnamed")
    Item()
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        name: str
    Item.model_rebuild(_types_namespace=5, force=True)
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        name: str
    Item(name="x").copy(update={"name": 5}, include=5)
    """,
    """
    from pydantic import BaseModel
    class Item(BaseModel):
        name: str
    Item.from_orm({"name": "x"})
    """,
    """
    from pydantic import BaseModel, ConfigDict
    class Item(BaseModel):
        model_config = ConfigDict(from_attributes=True)
        name: str
    Item.from_orm(5)
    """,
    """
    from pydantic import validate_arguments
    @validate_arguments
    def f(v__args: int):
        pass
    """,
    """
    from pydantic import BaseModel, field_validator
    class Item(BaseModel):
        name: str
        @field_validator("name")
        def check(self, v):
            return v
    """,
    """
    from pydantic import BaseModel, model_serializer
    class Item(BaseModel):
        name: str
        @model_serializer
        @staticmethod
        def ser(v):
            return {}
    """,
    """
    from pydantic import BaseModel, validator
    class Item(BaseModel):
        name: str
        @validator("name", each_item=True, allow_reuse=True, always=True, check_fields=False, pre=True)
        def check(cls, v, config, field, values, extra):
            return v
    """,
]
