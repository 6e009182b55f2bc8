# file: kernel/sched/deadline.c
# step: 06
# cells: x86_64-up arm-up
# Seen only where the owner looks at itself before its first runtime update: a
# boosted task whose runtime has run out is replenished from its donor at once
# (update_curr_dl_se()), which leaves it as the boost would have. In x86_64-smp
# one run of two saw it (26 at v6 step 12), the other did not (21 at v6 step 05).
# A deadline boost of a queued task does not replenish it with the donor's parameters (rt_mutex_setprio_dl()).
/^int rt_mutex_setprio_dl(/,/^}$/ s/^\t\treturn ENQUEUE_REPLENISH;$/\t\treturn 0;/
