# file: kernel/sched/core.c
# step: 00
# until: 05
# rt_mutex_setprio(): a deadline-boosted task back to fair keeps the donor's entity.
/^void rt_mutex_setprio(/,/^}/ {
	/^\t} else {$/,/^\t}$/ s/^\t\tif (dl_prio(oldprio))$/\t\tif (0)/
}
