# file: kernel/sched/core.c
# step: 00
# to_ratio(): RUNTIME_INF is no bandwidth rather than a whole CPU.
/^u64 to_ratio(/,/^}/ s/^\t\treturn BW_UNIT;/\t\treturn 0;/
