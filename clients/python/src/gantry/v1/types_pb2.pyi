from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class JobState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    JOB_STATE_UNSPECIFIED: _ClassVar[JobState]
    JOB_STATE_PENDING: _ClassVar[JobState]
    JOB_STATE_RUNNING: _ClassVar[JobState]
    JOB_STATE_SUSPENDED: _ClassVar[JobState]
    JOB_STATE_COMPLETED: _ClassVar[JobState]
    JOB_STATE_CANCELLED: _ClassVar[JobState]
    JOB_STATE_FAILED: _ClassVar[JobState]
    JOB_STATE_TIMEOUT: _ClassVar[JobState]
    JOB_STATE_NODE_FAIL: _ClassVar[JobState]
    JOB_STATE_PREEMPTED: _ClassVar[JobState]
    JOB_STATE_OUT_OF_MEMORY: _ClassVar[JobState]

class JobPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    JOB_PHASE_UNSPECIFIED: _ClassVar[JobPhase]
    JOB_PHASE_PENDING: _ClassVar[JobPhase]
    JOB_PHASE_RUNNING: _ClassVar[JobPhase]
    JOB_PHASE_SUSPENDED: _ClassVar[JobPhase]
    JOB_PHASE_COMPLETING: _ClassVar[JobPhase]
    JOB_PHASE_FINISHED: _ClassVar[JobPhase]

class JobHold(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    JOB_HOLD_UNSPECIFIED: _ClassVar[JobHold]
    JOB_HOLD_USER: _ClassVar[JobHold]
    JOB_HOLD_ADMIN: _ClassVar[JobHold]

class NodeState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NODE_STATE_UNSPECIFIED: _ClassVar[NodeState]
    NODE_STATE_UNKNOWN: _ClassVar[NodeState]
    NODE_STATE_IDLE: _ClassVar[NodeState]
    NODE_STATE_MIXED: _ClassVar[NodeState]
    NODE_STATE_ALLOCATED: _ClassVar[NodeState]
    NODE_STATE_DOWN: _ClassVar[NodeState]

class PartitionState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PARTITION_STATE_UNSPECIFIED: _ClassVar[PartitionState]
    PARTITION_STATE_UP: _ClassVar[PartitionState]
    PARTITION_STATE_DOWN: _ClassVar[PartitionState]
    PARTITION_STATE_DRAIN: _ClassVar[PartitionState]
    PARTITION_STATE_INACTIVE: _ClassVar[PartitionState]

class OverSubscribe(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OVER_SUBSCRIBE_UNSPECIFIED: _ClassVar[OverSubscribe]
    OVER_SUBSCRIBE_NO: _ClassVar[OverSubscribe]
    OVER_SUBSCRIBE_YES: _ClassVar[OverSubscribe]
    OVER_SUBSCRIBE_FORCE: _ClassVar[OverSubscribe]
    OVER_SUBSCRIBE_EXCLUSIVE: _ClassVar[OverSubscribe]
JOB_STATE_UNSPECIFIED: JobState
JOB_STATE_PENDING: JobState
JOB_STATE_RUNNING: JobState
JOB_STATE_SUSPENDED: JobState
JOB_STATE_COMPLETED: JobState
JOB_STATE_CANCELLED: JobState
JOB_STATE_FAILED: JobState
JOB_STATE_TIMEOUT: JobState
JOB_STATE_NODE_FAIL: JobState
JOB_STATE_PREEMPTED: JobState
JOB_STATE_OUT_OF_MEMORY: JobState
JOB_PHASE_UNSPECIFIED: JobPhase
JOB_PHASE_PENDING: JobPhase
JOB_PHASE_RUNNING: JobPhase
JOB_PHASE_SUSPENDED: JobPhase
JOB_PHASE_COMPLETING: JobPhase
JOB_PHASE_FINISHED: JobPhase
JOB_HOLD_UNSPECIFIED: JobHold
JOB_HOLD_USER: JobHold
JOB_HOLD_ADMIN: JobHold
NODE_STATE_UNSPECIFIED: NodeState
NODE_STATE_UNKNOWN: NodeState
NODE_STATE_IDLE: NodeState
NODE_STATE_MIXED: NodeState
NODE_STATE_ALLOCATED: NodeState
NODE_STATE_DOWN: NodeState
PARTITION_STATE_UNSPECIFIED: PartitionState
PARTITION_STATE_UP: PartitionState
PARTITION_STATE_DOWN: PartitionState
PARTITION_STATE_DRAIN: PartitionState
PARTITION_STATE_INACTIVE: PartitionState
OVER_SUBSCRIBE_UNSPECIFIED: OverSubscribe
OVER_SUBSCRIBE_NO: OverSubscribe
OVER_SUBSCRIBE_YES: OverSubscribe
OVER_SUBSCRIBE_FORCE: OverSubscribe
OVER_SUBSCRIBE_EXCLUSIVE: OverSubscribe

class JobSpec(_message.Message):
    __slots__ = ("name", "script", "argv", "work_dir", "stdout_path", "stderr_path", "partitions", "min_nodes", "max_nodes", "ntasks", "cpus_per_task", "mem_per_node_mb", "time_limit_seconds", "environment", "user", "uid", "gid", "submit_dir", "submit_host", "ntasks_per_node", "mem_per_cpu_mb", "gres", "exclusive", "constraint", "nodelist", "exclude", "contiguous", "oversubscribe", "account", "qos", "nice", "hold", "begin_time", "dependency", "array", "requeue", "exclusive_user")
    class EnvironmentEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCRIPT_FIELD_NUMBER: _ClassVar[int]
    ARGV_FIELD_NUMBER: _ClassVar[int]
    WORK_DIR_FIELD_NUMBER: _ClassVar[int]
    STDOUT_PATH_FIELD_NUMBER: _ClassVar[int]
    STDERR_PATH_FIELD_NUMBER: _ClassVar[int]
    PARTITIONS_FIELD_NUMBER: _ClassVar[int]
    MIN_NODES_FIELD_NUMBER: _ClassVar[int]
    MAX_NODES_FIELD_NUMBER: _ClassVar[int]
    NTASKS_FIELD_NUMBER: _ClassVar[int]
    CPUS_PER_TASK_FIELD_NUMBER: _ClassVar[int]
    MEM_PER_NODE_MB_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    UID_FIELD_NUMBER: _ClassVar[int]
    GID_FIELD_NUMBER: _ClassVar[int]
    SUBMIT_DIR_FIELD_NUMBER: _ClassVar[int]
    SUBMIT_HOST_FIELD_NUMBER: _ClassVar[int]
    NTASKS_PER_NODE_FIELD_NUMBER: _ClassVar[int]
    MEM_PER_CPU_MB_FIELD_NUMBER: _ClassVar[int]
    GRES_FIELD_NUMBER: _ClassVar[int]
    EXCLUSIVE_FIELD_NUMBER: _ClassVar[int]
    CONSTRAINT_FIELD_NUMBER: _ClassVar[int]
    NODELIST_FIELD_NUMBER: _ClassVar[int]
    EXCLUDE_FIELD_NUMBER: _ClassVar[int]
    CONTIGUOUS_FIELD_NUMBER: _ClassVar[int]
    OVERSUBSCRIBE_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    QOS_FIELD_NUMBER: _ClassVar[int]
    NICE_FIELD_NUMBER: _ClassVar[int]
    HOLD_FIELD_NUMBER: _ClassVar[int]
    BEGIN_TIME_FIELD_NUMBER: _ClassVar[int]
    DEPENDENCY_FIELD_NUMBER: _ClassVar[int]
    ARRAY_FIELD_NUMBER: _ClassVar[int]
    REQUEUE_FIELD_NUMBER: _ClassVar[int]
    EXCLUSIVE_USER_FIELD_NUMBER: _ClassVar[int]
    name: str
    script: str
    argv: _containers.RepeatedScalarFieldContainer[str]
    work_dir: str
    stdout_path: str
    stderr_path: str
    partitions: _containers.RepeatedScalarFieldContainer[str]
    min_nodes: int
    max_nodes: int
    ntasks: int
    cpus_per_task: int
    mem_per_node_mb: int
    time_limit_seconds: int
    environment: _containers.ScalarMap[str, str]
    user: str
    uid: int
    gid: int
    submit_dir: str
    submit_host: str
    ntasks_per_node: int
    mem_per_cpu_mb: int
    gres: _containers.RepeatedScalarFieldContainer[str]
    exclusive: bool
    constraint: str
    nodelist: str
    exclude: str
    contiguous: bool
    oversubscribe: bool
    account: str
    qos: str
    nice: int
    hold: bool
    begin_time: _timestamp_pb2.Timestamp
    dependency: str
    array: str
    requeue: bool
    exclusive_user: bool
    def __init__(self, name: _Optional[str] = ..., script: _Optional[str] = ..., argv: _Optional[_Iterable[str]] = ..., work_dir: _Optional[str] = ..., stdout_path: _Optional[str] = ..., stderr_path: _Optional[str] = ..., partitions: _Optional[_Iterable[str]] = ..., min_nodes: _Optional[int] = ..., max_nodes: _Optional[int] = ..., ntasks: _Optional[int] = ..., cpus_per_task: _Optional[int] = ..., mem_per_node_mb: _Optional[int] = ..., time_limit_seconds: _Optional[int] = ..., environment: _Optional[_Mapping[str, str]] = ..., user: _Optional[str] = ..., uid: _Optional[int] = ..., gid: _Optional[int] = ..., submit_dir: _Optional[str] = ..., submit_host: _Optional[str] = ..., ntasks_per_node: _Optional[int] = ..., mem_per_cpu_mb: _Optional[int] = ..., gres: _Optional[_Iterable[str]] = ..., exclusive: bool = ..., constraint: _Optional[str] = ..., nodelist: _Optional[str] = ..., exclude: _Optional[str] = ..., contiguous: bool = ..., oversubscribe: bool = ..., account: _Optional[str] = ..., qos: _Optional[str] = ..., nice: _Optional[int] = ..., hold: bool = ..., begin_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., dependency: _Optional[str] = ..., array: _Optional[str] = ..., requeue: bool = ..., exclusive_user: bool = ...) -> None: ...

class Gres(_message.Message):
    __slots__ = ("name", "type", "count", "indices")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    INDICES_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    count: int
    indices: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., count: _Optional[int] = ..., indices: _Optional[_Iterable[int]] = ...) -> None: ...

class Job(_message.Message):
    __slots__ = ("job_id", "spec", "state", "completing", "reason", "partition", "nodes", "node_list", "num_nodes", "num_cpus", "num_tasks", "time_limit_seconds", "submit_time", "eligible_time", "start_time", "end_time", "exit_code", "exit_signal", "priority", "mem_per_node_mb", "batch_host", "cpus_per_task", "max_nodes", "allocation", "last_state_change", "min_nodes", "partitions", "name", "ntasks_per_node", "mem_per_cpu_mb", "gres", "exclusive", "constraint", "req_nodes", "exc_nodes", "contiguous", "oversubscribe", "account", "qos", "nice", "dependency", "requeue", "restart_count", "hold", "array_job_id", "array_task_id", "array_task_spec", "sched_nodes", "sched_node_list", "suspend_seconds", "run_seconds", "admin_priority", "array_max_running", "begin_time", "preempt_time", "preempt_eligible_time", "admin_suspended", "backfill_preemptable", "time_used_seconds", "sched_by_backfill", "sched_in_last_backfill", "last_sched_eval", "phase")
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    COMPLETING_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    PARTITION_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    NODE_LIST_FIELD_NUMBER: _ClassVar[int]
    NUM_NODES_FIELD_NUMBER: _ClassVar[int]
    NUM_CPUS_FIELD_NUMBER: _ClassVar[int]
    NUM_TASKS_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    SUBMIT_TIME_FIELD_NUMBER: _ClassVar[int]
    ELIGIBLE_TIME_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    EXIT_CODE_FIELD_NUMBER: _ClassVar[int]
    EXIT_SIGNAL_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    MEM_PER_NODE_MB_FIELD_NUMBER: _ClassVar[int]
    BATCH_HOST_FIELD_NUMBER: _ClassVar[int]
    CPUS_PER_TASK_FIELD_NUMBER: _ClassVar[int]
    MAX_NODES_FIELD_NUMBER: _ClassVar[int]
    ALLOCATION_FIELD_NUMBER: _ClassVar[int]
    LAST_STATE_CHANGE_FIELD_NUMBER: _ClassVar[int]
    MIN_NODES_FIELD_NUMBER: _ClassVar[int]
    PARTITIONS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    NTASKS_PER_NODE_FIELD_NUMBER: _ClassVar[int]
    MEM_PER_CPU_MB_FIELD_NUMBER: _ClassVar[int]
    GRES_FIELD_NUMBER: _ClassVar[int]
    EXCLUSIVE_FIELD_NUMBER: _ClassVar[int]
    CONSTRAINT_FIELD_NUMBER: _ClassVar[int]
    REQ_NODES_FIELD_NUMBER: _ClassVar[int]
    EXC_NODES_FIELD_NUMBER: _ClassVar[int]
    CONTIGUOUS_FIELD_NUMBER: _ClassVar[int]
    OVERSUBSCRIBE_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    QOS_FIELD_NUMBER: _ClassVar[int]
    NICE_FIELD_NUMBER: _ClassVar[int]
    DEPENDENCY_FIELD_NUMBER: _ClassVar[int]
    REQUEUE_FIELD_NUMBER: _ClassVar[int]
    RESTART_COUNT_FIELD_NUMBER: _ClassVar[int]
    HOLD_FIELD_NUMBER: _ClassVar[int]
    ARRAY_JOB_ID_FIELD_NUMBER: _ClassVar[int]
    ARRAY_TASK_ID_FIELD_NUMBER: _ClassVar[int]
    ARRAY_TASK_SPEC_FIELD_NUMBER: _ClassVar[int]
    SCHED_NODES_FIELD_NUMBER: _ClassVar[int]
    SCHED_NODE_LIST_FIELD_NUMBER: _ClassVar[int]
    SUSPEND_SECONDS_FIELD_NUMBER: _ClassVar[int]
    RUN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ADMIN_PRIORITY_FIELD_NUMBER: _ClassVar[int]
    ARRAY_MAX_RUNNING_FIELD_NUMBER: _ClassVar[int]
    BEGIN_TIME_FIELD_NUMBER: _ClassVar[int]
    PREEMPT_TIME_FIELD_NUMBER: _ClassVar[int]
    PREEMPT_ELIGIBLE_TIME_FIELD_NUMBER: _ClassVar[int]
    ADMIN_SUSPENDED_FIELD_NUMBER: _ClassVar[int]
    BACKFILL_PREEMPTABLE_FIELD_NUMBER: _ClassVar[int]
    TIME_USED_SECONDS_FIELD_NUMBER: _ClassVar[int]
    SCHED_BY_BACKFILL_FIELD_NUMBER: _ClassVar[int]
    SCHED_IN_LAST_BACKFILL_FIELD_NUMBER: _ClassVar[int]
    LAST_SCHED_EVAL_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    job_id: int
    spec: JobSpec
    state: JobState
    completing: bool
    reason: str
    partition: str
    nodes: _containers.RepeatedScalarFieldContainer[str]
    node_list: str
    num_nodes: int
    num_cpus: int
    num_tasks: int
    time_limit_seconds: int
    submit_time: _timestamp_pb2.Timestamp
    eligible_time: _timestamp_pb2.Timestamp
    start_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    exit_code: int
    exit_signal: int
    priority: int
    mem_per_node_mb: int
    batch_host: str
    cpus_per_task: int
    max_nodes: int
    allocation: _containers.RepeatedCompositeFieldContainer[NodeAllocation]
    last_state_change: _timestamp_pb2.Timestamp
    min_nodes: int
    partitions: _containers.RepeatedScalarFieldContainer[str]
    name: str
    ntasks_per_node: int
    mem_per_cpu_mb: int
    gres: _containers.RepeatedCompositeFieldContainer[Gres]
    exclusive: bool
    constraint: str
    req_nodes: _containers.RepeatedScalarFieldContainer[str]
    exc_nodes: _containers.RepeatedScalarFieldContainer[str]
    contiguous: bool
    oversubscribe: bool
    account: str
    qos: str
    nice: int
    dependency: str
    requeue: bool
    restart_count: int
    hold: JobHold
    array_job_id: int
    array_task_id: int
    array_task_spec: str
    sched_nodes: _containers.RepeatedScalarFieldContainer[str]
    sched_node_list: str
    suspend_seconds: int
    run_seconds: int
    admin_priority: bool
    array_max_running: int
    begin_time: _timestamp_pb2.Timestamp
    preempt_time: _timestamp_pb2.Timestamp
    preempt_eligible_time: _timestamp_pb2.Timestamp
    admin_suspended: bool
    backfill_preemptable: bool
    time_used_seconds: int
    sched_by_backfill: bool
    sched_in_last_backfill: bool
    last_sched_eval: _timestamp_pb2.Timestamp
    phase: JobPhase
    def __init__(self, job_id: _Optional[int] = ..., spec: _Optional[_Union[JobSpec, _Mapping]] = ..., state: _Optional[_Union[JobState, str]] = ..., completing: bool = ..., reason: _Optional[str] = ..., partition: _Optional[str] = ..., nodes: _Optional[_Iterable[str]] = ..., node_list: _Optional[str] = ..., num_nodes: _Optional[int] = ..., num_cpus: _Optional[int] = ..., num_tasks: _Optional[int] = ..., time_limit_seconds: _Optional[int] = ..., submit_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., eligible_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., start_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., exit_code: _Optional[int] = ..., exit_signal: _Optional[int] = ..., priority: _Optional[int] = ..., mem_per_node_mb: _Optional[int] = ..., batch_host: _Optional[str] = ..., cpus_per_task: _Optional[int] = ..., max_nodes: _Optional[int] = ..., allocation: _Optional[_Iterable[_Union[NodeAllocation, _Mapping]]] = ..., last_state_change: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., min_nodes: _Optional[int] = ..., partitions: _Optional[_Iterable[str]] = ..., name: _Optional[str] = ..., ntasks_per_node: _Optional[int] = ..., mem_per_cpu_mb: _Optional[int] = ..., gres: _Optional[_Iterable[_Union[Gres, _Mapping]]] = ..., exclusive: bool = ..., constraint: _Optional[str] = ..., req_nodes: _Optional[_Iterable[str]] = ..., exc_nodes: _Optional[_Iterable[str]] = ..., contiguous: bool = ..., oversubscribe: bool = ..., account: _Optional[str] = ..., qos: _Optional[str] = ..., nice: _Optional[int] = ..., dependency: _Optional[str] = ..., requeue: bool = ..., restart_count: _Optional[int] = ..., hold: _Optional[_Union[JobHold, str]] = ..., array_job_id: _Optional[int] = ..., array_task_id: _Optional[int] = ..., array_task_spec: _Optional[str] = ..., sched_nodes: _Optional[_Iterable[str]] = ..., sched_node_list: _Optional[str] = ..., suspend_seconds: _Optional[int] = ..., run_seconds: _Optional[int] = ..., admin_priority: bool = ..., array_max_running: _Optional[int] = ..., begin_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., preempt_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., preempt_eligible_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., admin_suspended: bool = ..., backfill_preemptable: bool = ..., time_used_seconds: _Optional[int] = ..., sched_by_backfill: bool = ..., sched_in_last_backfill: bool = ..., last_sched_eval: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., phase: _Optional[_Union[JobPhase, str]] = ...) -> None: ...

class Node(_message.Message):
    __slots__ = ("name", "state", "drain", "not_responding", "reason", "cpus", "sockets", "cores_per_socket", "threads_per_core", "real_memory_mb", "alloc_cpus", "alloc_memory_mb", "partitions", "agent_address", "last_seen", "boot_time", "weight", "features", "gres", "alloc_gres")
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    DRAIN_FIELD_NUMBER: _ClassVar[int]
    NOT_RESPONDING_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CPUS_FIELD_NUMBER: _ClassVar[int]
    SOCKETS_FIELD_NUMBER: _ClassVar[int]
    CORES_PER_SOCKET_FIELD_NUMBER: _ClassVar[int]
    THREADS_PER_CORE_FIELD_NUMBER: _ClassVar[int]
    REAL_MEMORY_MB_FIELD_NUMBER: _ClassVar[int]
    ALLOC_CPUS_FIELD_NUMBER: _ClassVar[int]
    ALLOC_MEMORY_MB_FIELD_NUMBER: _ClassVar[int]
    PARTITIONS_FIELD_NUMBER: _ClassVar[int]
    AGENT_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    LAST_SEEN_FIELD_NUMBER: _ClassVar[int]
    BOOT_TIME_FIELD_NUMBER: _ClassVar[int]
    WEIGHT_FIELD_NUMBER: _ClassVar[int]
    FEATURES_FIELD_NUMBER: _ClassVar[int]
    GRES_FIELD_NUMBER: _ClassVar[int]
    ALLOC_GRES_FIELD_NUMBER: _ClassVar[int]
    name: str
    state: NodeState
    drain: bool
    not_responding: bool
    reason: str
    cpus: int
    sockets: int
    cores_per_socket: int
    threads_per_core: int
    real_memory_mb: int
    alloc_cpus: int
    alloc_memory_mb: int
    partitions: _containers.RepeatedScalarFieldContainer[str]
    agent_address: str
    last_seen: _timestamp_pb2.Timestamp
    boot_time: _timestamp_pb2.Timestamp
    weight: int
    features: _containers.RepeatedScalarFieldContainer[str]
    gres: _containers.RepeatedCompositeFieldContainer[Gres]
    alloc_gres: _containers.RepeatedCompositeFieldContainer[Gres]
    def __init__(self, name: _Optional[str] = ..., state: _Optional[_Union[NodeState, str]] = ..., drain: bool = ..., not_responding: bool = ..., reason: _Optional[str] = ..., cpus: _Optional[int] = ..., sockets: _Optional[int] = ..., cores_per_socket: _Optional[int] = ..., threads_per_core: _Optional[int] = ..., real_memory_mb: _Optional[int] = ..., alloc_cpus: _Optional[int] = ..., alloc_memory_mb: _Optional[int] = ..., partitions: _Optional[_Iterable[str]] = ..., agent_address: _Optional[str] = ..., last_seen: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., boot_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., weight: _Optional[int] = ..., features: _Optional[_Iterable[str]] = ..., gres: _Optional[_Iterable[_Union[Gres, _Mapping]]] = ..., alloc_gres: _Optional[_Iterable[_Union[Gres, _Mapping]]] = ...) -> None: ...

class Partition(_message.Message):
    __slots__ = ("name", "state", "is_default", "nodes", "node_list", "max_time_seconds", "default_time_seconds", "max_nodes", "min_nodes", "total_cpus", "priority_tier", "over_subscribe", "over_subscribe_jobs", "def_mem_per_cpu_mb", "def_mem_per_node_mb", "max_mem_per_cpu_mb", "max_mem_per_node_mb", "priority_job_factor", "allow_accounts", "allow_qos", "preempt_mode", "grace_time_seconds", "exclusive_user", "effective_preempt_mode")
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    IS_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    NODE_LIST_FIELD_NUMBER: _ClassVar[int]
    MAX_TIME_SECONDS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_TIME_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MAX_NODES_FIELD_NUMBER: _ClassVar[int]
    MIN_NODES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_CPUS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_TIER_FIELD_NUMBER: _ClassVar[int]
    OVER_SUBSCRIBE_FIELD_NUMBER: _ClassVar[int]
    OVER_SUBSCRIBE_JOBS_FIELD_NUMBER: _ClassVar[int]
    DEF_MEM_PER_CPU_MB_FIELD_NUMBER: _ClassVar[int]
    DEF_MEM_PER_NODE_MB_FIELD_NUMBER: _ClassVar[int]
    MAX_MEM_PER_CPU_MB_FIELD_NUMBER: _ClassVar[int]
    MAX_MEM_PER_NODE_MB_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_JOB_FACTOR_FIELD_NUMBER: _ClassVar[int]
    ALLOW_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    ALLOW_QOS_FIELD_NUMBER: _ClassVar[int]
    PREEMPT_MODE_FIELD_NUMBER: _ClassVar[int]
    GRACE_TIME_SECONDS_FIELD_NUMBER: _ClassVar[int]
    EXCLUSIVE_USER_FIELD_NUMBER: _ClassVar[int]
    EFFECTIVE_PREEMPT_MODE_FIELD_NUMBER: _ClassVar[int]
    name: str
    state: PartitionState
    is_default: bool
    nodes: _containers.RepeatedScalarFieldContainer[str]
    node_list: str
    max_time_seconds: int
    default_time_seconds: int
    max_nodes: int
    min_nodes: int
    total_cpus: int
    priority_tier: int
    over_subscribe: OverSubscribe
    over_subscribe_jobs: int
    def_mem_per_cpu_mb: int
    def_mem_per_node_mb: int
    max_mem_per_cpu_mb: int
    max_mem_per_node_mb: int
    priority_job_factor: int
    allow_accounts: _containers.RepeatedScalarFieldContainer[str]
    allow_qos: _containers.RepeatedScalarFieldContainer[str]
    preempt_mode: str
    grace_time_seconds: int
    exclusive_user: bool
    effective_preempt_mode: str
    def __init__(self, name: _Optional[str] = ..., state: _Optional[_Union[PartitionState, str]] = ..., is_default: bool = ..., nodes: _Optional[_Iterable[str]] = ..., node_list: _Optional[str] = ..., max_time_seconds: _Optional[int] = ..., default_time_seconds: _Optional[int] = ..., max_nodes: _Optional[int] = ..., min_nodes: _Optional[int] = ..., total_cpus: _Optional[int] = ..., priority_tier: _Optional[int] = ..., over_subscribe: _Optional[_Union[OverSubscribe, str]] = ..., over_subscribe_jobs: _Optional[int] = ..., def_mem_per_cpu_mb: _Optional[int] = ..., def_mem_per_node_mb: _Optional[int] = ..., max_mem_per_cpu_mb: _Optional[int] = ..., max_mem_per_node_mb: _Optional[int] = ..., priority_job_factor: _Optional[int] = ..., allow_accounts: _Optional[_Iterable[str]] = ..., allow_qos: _Optional[_Iterable[str]] = ..., preempt_mode: _Optional[str] = ..., grace_time_seconds: _Optional[int] = ..., exclusive_user: bool = ..., effective_preempt_mode: _Optional[str] = ...) -> None: ...

class NodeAllocation(_message.Message):
    __slots__ = ("node", "cpus", "memory_mb", "core_ids", "gres")
    NODE_FIELD_NUMBER: _ClassVar[int]
    CPUS_FIELD_NUMBER: _ClassVar[int]
    MEMORY_MB_FIELD_NUMBER: _ClassVar[int]
    CORE_IDS_FIELD_NUMBER: _ClassVar[int]
    GRES_FIELD_NUMBER: _ClassVar[int]
    node: str
    cpus: int
    memory_mb: int
    core_ids: _containers.RepeatedScalarFieldContainer[int]
    gres: _containers.RepeatedCompositeFieldContainer[Gres]
    def __init__(self, node: _Optional[str] = ..., cpus: _Optional[int] = ..., memory_mb: _Optional[int] = ..., core_ids: _Optional[_Iterable[int]] = ..., gres: _Optional[_Iterable[_Union[Gres, _Mapping]]] = ...) -> None: ...

class Allocation(_message.Message):
    __slots__ = ("job_id", "partition", "nodes", "suspended", "start_time", "end_time", "suspend_time", "exclusive", "user", "exclusive_user")
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    PARTITION_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    SUSPENDED_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    SUSPEND_TIME_FIELD_NUMBER: _ClassVar[int]
    EXCLUSIVE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    EXCLUSIVE_USER_FIELD_NUMBER: _ClassVar[int]
    job_id: int
    partition: str
    nodes: _containers.RepeatedCompositeFieldContainer[NodeAllocation]
    suspended: bool
    start_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    suspend_time: _timestamp_pb2.Timestamp
    exclusive: bool
    user: str
    exclusive_user: bool
    def __init__(self, job_id: _Optional[int] = ..., partition: _Optional[str] = ..., nodes: _Optional[_Iterable[_Union[NodeAllocation, _Mapping]]] = ..., suspended: bool = ..., start_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., suspend_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., exclusive: bool = ..., user: _Optional[str] = ..., exclusive_user: bool = ...) -> None: ...
