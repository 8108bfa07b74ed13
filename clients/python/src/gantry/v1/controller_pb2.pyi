from gantry.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class JobView(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    JOB_VIEW_UNSPECIFIED: _ClassVar[JobView]
    JOB_VIEW_SUMMARY: _ClassVar[JobView]
    JOB_VIEW_FULL: _ClassVar[JobView]
    JOB_VIEW_PRIVATE: _ClassVar[JobView]
JOB_VIEW_UNSPECIFIED: JobView
JOB_VIEW_SUMMARY: JobView
JOB_VIEW_FULL: JobView
JOB_VIEW_PRIVATE: JobView

class JobResult(_message.Message):
    __slots__ = ("job_id", "ok", "error", "code")
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    job_id: int
    ok: bool
    error: str
    code: int
    def __init__(self, job_id: _Optional[int] = ..., ok: bool = ..., error: _Optional[str] = ..., code: _Optional[int] = ...) -> None: ...

class HoldJobRequest(_message.Message):
    __slots__ = ("job_ids", "user", "user_hold")
    JOB_IDS_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    USER_HOLD_FIELD_NUMBER: _ClassVar[int]
    job_ids: _containers.RepeatedScalarFieldContainer[int]
    user: str
    user_hold: bool
    def __init__(self, job_ids: _Optional[_Iterable[int]] = ..., user: _Optional[str] = ..., user_hold: bool = ...) -> None: ...

class HoldJobResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[JobResult]
    def __init__(self, results: _Optional[_Iterable[_Union[JobResult, _Mapping]]] = ...) -> None: ...

class ReleaseJobRequest(_message.Message):
    __slots__ = ("job_ids", "user")
    JOB_IDS_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    job_ids: _containers.RepeatedScalarFieldContainer[int]
    user: str
    def __init__(self, job_ids: _Optional[_Iterable[int]] = ..., user: _Optional[str] = ...) -> None: ...

class ReleaseJobResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[JobResult]
    def __init__(self, results: _Optional[_Iterable[_Union[JobResult, _Mapping]]] = ...) -> None: ...

class RequeueJobRequest(_message.Message):
    __slots__ = ("job_ids", "user", "hold")
    JOB_IDS_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    HOLD_FIELD_NUMBER: _ClassVar[int]
    job_ids: _containers.RepeatedScalarFieldContainer[int]
    user: str
    hold: bool
    def __init__(self, job_ids: _Optional[_Iterable[int]] = ..., user: _Optional[str] = ..., hold: bool = ...) -> None: ...

class RequeueJobResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[JobResult]
    def __init__(self, results: _Optional[_Iterable[_Union[JobResult, _Mapping]]] = ...) -> None: ...

class SuspendJobsRequest(_message.Message):
    __slots__ = ("job_ids", "user")
    JOB_IDS_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    job_ids: _containers.RepeatedScalarFieldContainer[int]
    user: str
    def __init__(self, job_ids: _Optional[_Iterable[int]] = ..., user: _Optional[str] = ...) -> None: ...

class SuspendJobsResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[JobResult]
    def __init__(self, results: _Optional[_Iterable[_Union[JobResult, _Mapping]]] = ...) -> None: ...

class ResumeJobsRequest(_message.Message):
    __slots__ = ("job_ids", "user")
    JOB_IDS_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    job_ids: _containers.RepeatedScalarFieldContainer[int]
    user: str
    def __init__(self, job_ids: _Optional[_Iterable[int]] = ..., user: _Optional[str] = ...) -> None: ...

class ResumeJobsResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[JobResult]
    def __init__(self, results: _Optional[_Iterable[_Union[JobResult, _Mapping]]] = ...) -> None: ...

class UpdateJobRequest(_message.Message):
    __slots__ = ("job_ids", "user", "time_limit_seconds", "partitions", "min_nodes", "max_nodes", "priority", "nice", "qos", "account", "dependency")
    JOB_IDS_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    PARTITIONS_FIELD_NUMBER: _ClassVar[int]
    MIN_NODES_FIELD_NUMBER: _ClassVar[int]
    MAX_NODES_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    NICE_FIELD_NUMBER: _ClassVar[int]
    QOS_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    DEPENDENCY_FIELD_NUMBER: _ClassVar[int]
    job_ids: _containers.RepeatedScalarFieldContainer[int]
    user: str
    time_limit_seconds: int
    partitions: _containers.RepeatedScalarFieldContainer[str]
    min_nodes: int
    max_nodes: int
    priority: int
    nice: int
    qos: str
    account: str
    dependency: str
    def __init__(self, job_ids: _Optional[_Iterable[int]] = ..., user: _Optional[str] = ..., time_limit_seconds: _Optional[int] = ..., partitions: _Optional[_Iterable[str]] = ..., min_nodes: _Optional[int] = ..., max_nodes: _Optional[int] = ..., priority: _Optional[int] = ..., nice: _Optional[int] = ..., qos: _Optional[str] = ..., account: _Optional[str] = ..., dependency: _Optional[str] = ...) -> None: ...

class UpdateJobResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[JobResult]
    def __init__(self, results: _Optional[_Iterable[_Union[JobResult, _Mapping]]] = ...) -> None: ...

class TopJobRequest(_message.Message):
    __slots__ = ("job_ids", "user")
    JOB_IDS_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    job_ids: _containers.RepeatedScalarFieldContainer[int]
    user: str
    def __init__(self, job_ids: _Optional[_Iterable[int]] = ..., user: _Optional[str] = ...) -> None: ...

class TopJobResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[JobResult]
    def __init__(self, results: _Optional[_Iterable[_Union[JobResult, _Mapping]]] = ...) -> None: ...

class GetPrioritiesRequest(_message.Message):
    __slots__ = ("job_ids", "users", "partitions")
    JOB_IDS_FIELD_NUMBER: _ClassVar[int]
    USERS_FIELD_NUMBER: _ClassVar[int]
    PARTITIONS_FIELD_NUMBER: _ClassVar[int]
    job_ids: _containers.RepeatedScalarFieldContainer[int]
    users: _containers.RepeatedScalarFieldContainer[str]
    partitions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, job_ids: _Optional[_Iterable[int]] = ..., users: _Optional[_Iterable[str]] = ..., partitions: _Optional[_Iterable[str]] = ...) -> None: ...

class JobPriority(_message.Message):
    __slots__ = ("job_id", "partition", "user", "account", "qos", "priority", "site", "age", "fairshare", "job_size", "partition_factor", "qos_factor", "nice", "tres", "admin_set")
    class TresEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    PARTITION_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    QOS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    SITE_FIELD_NUMBER: _ClassVar[int]
    AGE_FIELD_NUMBER: _ClassVar[int]
    FAIRSHARE_FIELD_NUMBER: _ClassVar[int]
    JOB_SIZE_FIELD_NUMBER: _ClassVar[int]
    PARTITION_FACTOR_FIELD_NUMBER: _ClassVar[int]
    QOS_FACTOR_FIELD_NUMBER: _ClassVar[int]
    NICE_FIELD_NUMBER: _ClassVar[int]
    TRES_FIELD_NUMBER: _ClassVar[int]
    ADMIN_SET_FIELD_NUMBER: _ClassVar[int]
    job_id: int
    partition: str
    user: str
    account: str
    qos: str
    priority: int
    site: float
    age: float
    fairshare: float
    job_size: float
    partition_factor: float
    qos_factor: float
    nice: int
    tres: _containers.ScalarMap[str, float]
    admin_set: bool
    def __init__(self, job_id: _Optional[int] = ..., partition: _Optional[str] = ..., user: _Optional[str] = ..., account: _Optional[str] = ..., qos: _Optional[str] = ..., priority: _Optional[int] = ..., site: _Optional[float] = ..., age: _Optional[float] = ..., fairshare: _Optional[float] = ..., job_size: _Optional[float] = ..., partition_factor: _Optional[float] = ..., qos_factor: _Optional[float] = ..., nice: _Optional[int] = ..., tres: _Optional[_Mapping[str, float]] = ..., admin_set: bool = ...) -> None: ...

class PriorityWeights(_message.Message):
    __slots__ = ("age", "fairshare", "job_size", "partition", "qos", "tres")
    class TresEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    AGE_FIELD_NUMBER: _ClassVar[int]
    FAIRSHARE_FIELD_NUMBER: _ClassVar[int]
    JOB_SIZE_FIELD_NUMBER: _ClassVar[int]
    PARTITION_FIELD_NUMBER: _ClassVar[int]
    QOS_FIELD_NUMBER: _ClassVar[int]
    TRES_FIELD_NUMBER: _ClassVar[int]
    age: int
    fairshare: int
    job_size: int
    partition: int
    qos: int
    tres: _containers.ScalarMap[str, float]
    def __init__(self, age: _Optional[int] = ..., fairshare: _Optional[int] = ..., job_size: _Optional[int] = ..., partition: _Optional[int] = ..., qos: _Optional[int] = ..., tres: _Optional[_Mapping[str, float]] = ...) -> None: ...

class GetPrioritiesResponse(_message.Message):
    __slots__ = ("priorities", "weights")
    PRIORITIES_FIELD_NUMBER: _ClassVar[int]
    WEIGHTS_FIELD_NUMBER: _ClassVar[int]
    priorities: _containers.RepeatedCompositeFieldContainer[JobPriority]
    weights: PriorityWeights
    def __init__(self, priorities: _Optional[_Iterable[_Union[JobPriority, _Mapping]]] = ..., weights: _Optional[_Union[PriorityWeights, _Mapping]] = ...) -> None: ...

class GetSharesRequest(_message.Message):
    __slots__ = ("accounts", "users", "all_users")
    ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    USERS_FIELD_NUMBER: _ClassVar[int]
    ALL_USERS_FIELD_NUMBER: _ClassVar[int]
    accounts: _containers.RepeatedScalarFieldContainer[str]
    users: _containers.RepeatedScalarFieldContainer[str]
    all_users: bool
    def __init__(self, accounts: _Optional[_Iterable[str]] = ..., users: _Optional[_Iterable[str]] = ..., all_users: bool = ...) -> None: ...

class UsageAmount(_message.Message):
    __slots__ = ("cpu_hours", "gpu_hours", "gb_hours", "never")
    CPU_HOURS_FIELD_NUMBER: _ClassVar[int]
    GPU_HOURS_FIELD_NUMBER: _ClassVar[int]
    GB_HOURS_FIELD_NUMBER: _ClassVar[int]
    NEVER_FIELD_NUMBER: _ClassVar[int]
    cpu_hours: float
    gpu_hours: float
    gb_hours: float
    never: bool
    def __init__(self, cpu_hours: _Optional[float] = ..., gpu_hours: _Optional[float] = ..., gb_hours: _Optional[float] = ..., never: bool = ...) -> None: ...

class ShareRow(_message.Message):
    __slots__ = ("account", "user", "depth", "raw_shares", "norm_shares", "raw_usage", "norm_usage", "effective_usage", "fairshare", "tres_raw_usage", "usage_to_halve", "usage_to_zero")
    class TresRawUsageEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    RAW_SHARES_FIELD_NUMBER: _ClassVar[int]
    NORM_SHARES_FIELD_NUMBER: _ClassVar[int]
    RAW_USAGE_FIELD_NUMBER: _ClassVar[int]
    NORM_USAGE_FIELD_NUMBER: _ClassVar[int]
    EFFECTIVE_USAGE_FIELD_NUMBER: _ClassVar[int]
    FAIRSHARE_FIELD_NUMBER: _ClassVar[int]
    TRES_RAW_USAGE_FIELD_NUMBER: _ClassVar[int]
    USAGE_TO_HALVE_FIELD_NUMBER: _ClassVar[int]
    USAGE_TO_ZERO_FIELD_NUMBER: _ClassVar[int]
    account: str
    user: str
    depth: int
    raw_shares: int
    norm_shares: float
    raw_usage: float
    norm_usage: float
    effective_usage: float
    fairshare: float
    tres_raw_usage: _containers.ScalarMap[str, float]
    usage_to_halve: UsageAmount
    usage_to_zero: UsageAmount
    def __init__(self, account: _Optional[str] = ..., user: _Optional[str] = ..., depth: _Optional[int] = ..., raw_shares: _Optional[int] = ..., norm_shares: _Optional[float] = ..., raw_usage: _Optional[float] = ..., norm_usage: _Optional[float] = ..., effective_usage: _Optional[float] = ..., fairshare: _Optional[float] = ..., tres_raw_usage: _Optional[_Mapping[str, float]] = ..., usage_to_halve: _Optional[_Union[UsageAmount, _Mapping]] = ..., usage_to_zero: _Optional[_Union[UsageAmount, _Mapping]] = ...) -> None: ...

class GetSharesResponse(_message.Message):
    __slots__ = ("rows", "form")
    ROWS_FIELD_NUMBER: _ClassVar[int]
    FORM_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedCompositeFieldContainer[ShareRow]
    form: str
    def __init__(self, rows: _Optional[_Iterable[_Union[ShareRow, _Mapping]]] = ..., form: _Optional[str] = ...) -> None: ...

class Qos(_message.Message):
    __slots__ = ("name", "priority", "preempt", "preempt_mode", "grace_time_seconds", "preempt_exempt_time_seconds", "max_wall_seconds", "max_jobs_per_user", "max_submit_jobs_per_user", "grp_tres", "max_tres_per_user", "usage_factor", "flags")
    class GrpTresEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class MaxTresPerUserEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    PREEMPT_FIELD_NUMBER: _ClassVar[int]
    PREEMPT_MODE_FIELD_NUMBER: _ClassVar[int]
    GRACE_TIME_SECONDS_FIELD_NUMBER: _ClassVar[int]
    PREEMPT_EXEMPT_TIME_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MAX_WALL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MAX_JOBS_PER_USER_FIELD_NUMBER: _ClassVar[int]
    MAX_SUBMIT_JOBS_PER_USER_FIELD_NUMBER: _ClassVar[int]
    GRP_TRES_FIELD_NUMBER: _ClassVar[int]
    MAX_TRES_PER_USER_FIELD_NUMBER: _ClassVar[int]
    USAGE_FACTOR_FIELD_NUMBER: _ClassVar[int]
    FLAGS_FIELD_NUMBER: _ClassVar[int]
    name: str
    priority: int
    preempt: _containers.RepeatedScalarFieldContainer[str]
    preempt_mode: str
    grace_time_seconds: int
    preempt_exempt_time_seconds: int
    max_wall_seconds: int
    max_jobs_per_user: int
    max_submit_jobs_per_user: int
    grp_tres: _containers.ScalarMap[str, int]
    max_tres_per_user: _containers.ScalarMap[str, int]
    usage_factor: float
    flags: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., priority: _Optional[int] = ..., preempt: _Optional[_Iterable[str]] = ..., preempt_mode: _Optional[str] = ..., grace_time_seconds: _Optional[int] = ..., preempt_exempt_time_seconds: _Optional[int] = ..., max_wall_seconds: _Optional[int] = ..., max_jobs_per_user: _Optional[int] = ..., max_submit_jobs_per_user: _Optional[int] = ..., grp_tres: _Optional[_Mapping[str, int]] = ..., max_tres_per_user: _Optional[_Mapping[str, int]] = ..., usage_factor: _Optional[float] = ..., flags: _Optional[_Iterable[str]] = ...) -> None: ...

class ListQosRequest(_message.Message):
    __slots__ = ("names",)
    NAMES_FIELD_NUMBER: _ClassVar[int]
    names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, names: _Optional[_Iterable[str]] = ...) -> None: ...

class ListQosResponse(_message.Message):
    __slots__ = ("qos",)
    QOS_FIELD_NUMBER: _ClassVar[int]
    qos: _containers.RepeatedCompositeFieldContainer[Qos]
    def __init__(self, qos: _Optional[_Iterable[_Union[Qos, _Mapping]]] = ...) -> None: ...

class UpdateQosRequest(_message.Message):
    __slots__ = ("qos", "user")
    QOS_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    qos: Qos
    user: str
    def __init__(self, qos: _Optional[_Union[Qos, _Mapping]] = ..., user: _Optional[str] = ...) -> None: ...

class UpdateQosResponse(_message.Message):
    __slots__ = ("qos",)
    QOS_FIELD_NUMBER: _ClassVar[int]
    qos: Qos
    def __init__(self, qos: _Optional[_Union[Qos, _Mapping]] = ...) -> None: ...

class SubmitJobRequest(_message.Message):
    __slots__ = ("spec",)
    SPEC_FIELD_NUMBER: _ClassVar[int]
    spec: _types_pb2.JobSpec
    def __init__(self, spec: _Optional[_Union[_types_pb2.JobSpec, _Mapping]] = ...) -> None: ...

class SubmitJobResponse(_message.Message):
    __slots__ = ("job_id",)
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    job_id: int
    def __init__(self, job_id: _Optional[int] = ...) -> None: ...

class CancelJobRequest(_message.Message):
    __slots__ = ("job_ids", "user", "signal")
    JOB_IDS_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    SIGNAL_FIELD_NUMBER: _ClassVar[int]
    job_ids: _containers.RepeatedScalarFieldContainer[int]
    user: str
    signal: int
    def __init__(self, job_ids: _Optional[_Iterable[int]] = ..., user: _Optional[str] = ..., signal: _Optional[int] = ...) -> None: ...

class CancelJobResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[CancelResult]
    def __init__(self, results: _Optional[_Iterable[_Union[CancelResult, _Mapping]]] = ...) -> None: ...

class CancelResult(_message.Message):
    __slots__ = ("job_id", "ok", "error", "code")
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    job_id: int
    ok: bool
    error: str
    code: int
    def __init__(self, job_id: _Optional[int] = ..., ok: bool = ..., error: _Optional[str] = ..., code: _Optional[int] = ...) -> None: ...

class GetJobRequest(_message.Message):
    __slots__ = ("job_id", "view")
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    job_id: int
    view: JobView
    def __init__(self, job_id: _Optional[int] = ..., view: _Optional[_Union[JobView, str]] = ...) -> None: ...

class GetJobResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: _types_pb2.Job
    def __init__(self, job: _Optional[_Union[_types_pb2.Job, _Mapping]] = ...) -> None: ...

class GetBatchScriptRequest(_message.Message):
    __slots__ = ("job_id",)
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    job_id: int
    def __init__(self, job_id: _Optional[int] = ...) -> None: ...

class GetBatchScriptResponse(_message.Message):
    __slots__ = ("job_id", "script")
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    SCRIPT_FIELD_NUMBER: _ClassVar[int]
    job_id: int
    script: str
    def __init__(self, job_id: _Optional[int] = ..., script: _Optional[str] = ...) -> None: ...

class ListJobsRequest(_message.Message):
    __slots__ = ("job_ids", "users", "partitions", "states", "array_job_ids", "page_size", "page_token", "view")
    JOB_IDS_FIELD_NUMBER: _ClassVar[int]
    USERS_FIELD_NUMBER: _ClassVar[int]
    PARTITIONS_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    ARRAY_JOB_IDS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    job_ids: _containers.RepeatedScalarFieldContainer[int]
    users: _containers.RepeatedScalarFieldContainer[str]
    partitions: _containers.RepeatedScalarFieldContainer[str]
    states: _containers.RepeatedScalarFieldContainer[_types_pb2.JobState]
    array_job_ids: _containers.RepeatedScalarFieldContainer[int]
    page_size: int
    page_token: str
    view: JobView
    def __init__(self, job_ids: _Optional[_Iterable[int]] = ..., users: _Optional[_Iterable[str]] = ..., partitions: _Optional[_Iterable[str]] = ..., states: _Optional[_Iterable[_Union[_types_pb2.JobState, str]]] = ..., array_job_ids: _Optional[_Iterable[int]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., view: _Optional[_Union[JobView, str]] = ...) -> None: ...

class ListJobsResponse(_message.Message):
    __slots__ = ("jobs", "next_page_token")
    JOBS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    jobs: _containers.RepeatedCompositeFieldContainer[_types_pb2.Job]
    next_page_token: str
    def __init__(self, jobs: _Optional[_Iterable[_Union[_types_pb2.Job, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class WatchJobsRequest(_message.Message):
    __slots__ = ("filter",)
    FILTER_FIELD_NUMBER: _ClassVar[int]
    filter: ListJobsRequest
    def __init__(self, filter: _Optional[_Union[ListJobsRequest, _Mapping]] = ...) -> None: ...

class WatchJobsResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: _types_pb2.Job
    def __init__(self, job: _Optional[_Union[_types_pb2.Job, _Mapping]] = ...) -> None: ...

class ListNodesRequest(_message.Message):
    __slots__ = ("names",)
    NAMES_FIELD_NUMBER: _ClassVar[int]
    names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, names: _Optional[_Iterable[str]] = ...) -> None: ...

class ListNodesResponse(_message.Message):
    __slots__ = ("nodes",)
    NODES_FIELD_NUMBER: _ClassVar[int]
    nodes: _containers.RepeatedCompositeFieldContainer[_types_pb2.Node]
    def __init__(self, nodes: _Optional[_Iterable[_Union[_types_pb2.Node, _Mapping]]] = ...) -> None: ...

class ListPartitionsRequest(_message.Message):
    __slots__ = ("names",)
    NAMES_FIELD_NUMBER: _ClassVar[int]
    names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, names: _Optional[_Iterable[str]] = ...) -> None: ...

class ListPartitionsResponse(_message.Message):
    __slots__ = ("partitions",)
    PARTITIONS_FIELD_NUMBER: _ClassVar[int]
    partitions: _containers.RepeatedCompositeFieldContainer[_types_pb2.Partition]
    def __init__(self, partitions: _Optional[_Iterable[_Union[_types_pb2.Partition, _Mapping]]] = ...) -> None: ...

class CreateTokenRequest(_message.Message):
    __slots__ = ("lifespan_seconds", "username")
    LIFESPAN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    lifespan_seconds: int
    username: str
    def __init__(self, lifespan_seconds: _Optional[int] = ..., username: _Optional[str] = ...) -> None: ...

class CreateTokenResponse(_message.Message):
    __slots__ = ("token", "username", "expires_at_seconds")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    token: str
    username: str
    expires_at_seconds: int
    def __init__(self, token: _Optional[str] = ..., username: _Optional[str] = ..., expires_at_seconds: _Optional[int] = ...) -> None: ...
