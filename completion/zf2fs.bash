# bash completion for zf2fs-tools: mkfs.f2fs, fsck.f2fs, dump.f2fs, gc.f2fs, inject.f2fs,
# sload.f2fs, defrag.f2fs, resize.f2fs, f2fslabel, f2fs_io, fibmap.f2fs, f2fs_metadump and
# f2fs_mdrestore
# (options, their fixed values, and gc.f2fs's and f2fs_io's commands).
#
# Installed once per tool name (bash-completion loads completions/<command> on demand);
# each copy registers all of them.  Plain bash only: no helper from the bash-completion
# package is needed, so the file also works when sourced by hand.  The option lists follow
# each tool's --help; tests/images/completion.sh fails when they drift apart.

# _zf2fs_reply WORDS...: COMPREPLY from the words that start with the current word.
_zf2fs_reply()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local IFS=$'\n'
	mapfile -t COMPREPLY < <(compgen -W "$*" -- "$cur")
}

# _zf2fs_files: COMPREPLY from file names (devices and images).
_zf2fs_files()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}

_zf2fs_mkfs()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	-a|-t) _zf2fs_reply 0 1; return ;;
	-b) _zf2fs_reply 4096 16384; return ;;
	-C) _zf2fs_reply utf8 utf8:strict utf8:hashonly utf8:strict,hashonly; return ;;
	-d) _zf2fs_reply 0 1 2 3 4; return ;;
	-g) _zf2fs_reply android; return ;;
	-O) _zf2fs_reply encrypt extra_attr project_quota inode_checksum flexible_inline_xattr \
		inode_crtime lost_found verity sb_checksum casefold compression quota ro \
		packed_ssa; return ;;
	-w) _zf2fs_reply 512 1024 2048 4096; return ;;
	-c) _zf2fs_files; return ;;
	--root-dir) compopt -o dirnames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return ;;
	-e|-E|-l|-o|-R|-s|-S|-T|-U|-z|-Z) return ;;
	esac
	case $cur in
	-*) _zf2fs_reply -a -b -c -C -d -e -E -f -g -H -i -l -m -o -O -q -r -R -s -S -t -T -U \
		-V -w -z -Z -h --create-file --json --root-dir --help --version ;;
	*) _zf2fs_files ;;
	esac
}

_zf2fs_fsck()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	-d) _zf2fs_reply 0 1 2 3 4; return ;;
	-p) case $cur in [0-9]*) _zf2fs_reply 0 1 2 ;; *) _zf2fs_files ;; esac; return ;;
	-g) _zf2fs_reply android; return ;;
	-C) _zf2fs_reply utf8 utf8:strict; return ;;
	-O) _zf2fs_reply encrypt casefold; return ;;
	-c|-m|-q|--progress-fd) return ;;
	esac
	case $cur in
	--nolinear-lookup=*) COMPREPLY=(--nolinear-lookup=0 --nolinear-lookup=1) ;;
	-*) _zf2fs_reply -a -p -f -n -N -y -g -O -C -q -c -m -H -S -d -t -l -M -V -h --dry-run --preen \
		--nolinear-lookup --debug-cache --kernel-check --no-kernel-check --json --progress \
		--progress-fd --rebuild --version --help ;;
	*) _zf2fs_files ;;
	esac
}

_zf2fs_dump()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	-d|--debug) _zf2fs_reply 0 1 2 3 4; return ;;
	-o|--output) _zf2fs_files; return ;;
	-i|-I|--inode|--scan-inode|-n|--nat|-s|--sit|-a|--ssa|-b|--block|--ls|--cat|--frag|--extract) return ;;
	esac
	case $cur in
	-*) _zf2fs_reply -i -I -n -s -a -b -r -o -f -y -N -P -L -M -H -S -d -V -h --inode --nat --sit --ssa --block \
		--superblock --checkpoint --segments --ls --cat --tree --extract --zones --quota \
		--frag --json --output --sparse --raw-encrypted --scan-inode --debug --version --help ;;
	*) _zf2fs_files ;;
	esac
}

_zf2fs_gc()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd='' i
	COMPREPLY=()
	# The command is the first word after gc.f2fs that is not an option.
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		case $cur in
		-*) _zf2fs_reply -h -V --help --version ;;
		*) _zf2fs_reply state replay collect bench simulate ;;
		esac
		return
	fi
	case $prev in
	--policy|--bg-policy) _zf2fs_reply greedy cb atgc; return ;;
	--search) _zf2fs_reply kernel all proportional fixed:; return ;;
	--engine|--only) _zf2fs_reply index scan; return ;;
	--gc-type) _zf2fs_reply fg bg; return ;;
	--alloc) _zf2fs_reply lfs ssr; return ;;
	--ssr-type) _zf2fs_reply 0 1 2 3 4 5; return ;;
	--mode) _zf2fs_reply lfs adaptive; return ;;
	--ipu-policy) _zf2fs_reply default none fsync force; return ;;
	--format) _zf2fs_reply text json csv; return ;;
	--pattern) _zf2fs_reply uniform zipf: hotcold: seq; return ;;
	--preset) _zf2fs_reply 2013; return ;;
	--kernel) _zf2fs_reply 6.1 7.3; return ;;
	--knob) _zf2fs_reply migration_granularity= migration_window_granularity= \
		gc_boost_zoned_gc_percent= gc_boost_gc_multiple=; return ;;
	-b) _zf2fs_reply 4096 16384; return ;;
	-Z) _zf2fs_reply auto; return ;;
	--device|--series|--plot) _zf2fs_files; return ;;
	--reclaim|-n|--count|--until-free|--batch-blocks|--progress-fd|--max-search|--now|--step-clock|--step-types|--last-victim|--zone-capacity|--segments|\
	--selections|--segs-per-sec|--seed|--size|--zoned|--conv-zones|--conv-dev|-s|-z|-o|\
	--fill|--file-size|--files|--ops|--bs|--stream|--gc-max-secs|--bg-gc|--write-cost|\
	--move-cost|--cp-cost|--rate|--cp-interval|--compare|--samples) return ;;
	esac
	case $cmd in
	simulate)
		case $cur in
		-*) _zf2fs_reply --size --zoned --conv-zones --conv-dev -b -s -z -o -Z --seed --fill \
			--file-size --files --fallocate --ops --bs --sync --pattern --stream --preset --mode \
			--ipu-policy --policy --search --max-search --gc-max-secs --bg-gc --bg-policy \
			--write-cost --move-cost --cp-cost --rate --cp-interval --compare --equal-op \
			--format --samples --series --plot -v --verbose ;;
		*) _zf2fs_files ;;
		esac ;;
	collect)
		case $cur in
		-*) _zf2fs_reply --json --kernel --knob --device --zone-capacity --gc-type --policy -n \
			--count --until-free \
			--dry-run --batch-blocks --progress --progress-fd --max-search --search --engine \
			--now --no-fg-shortcut -v --verbose -h --help -V --version ;;
		*) _zf2fs_files ;;
		esac ;;
	state|replay|bench)
		case $cur in
		-*) _zf2fs_reply --json --kernel --knob --device --zone-capacity --reclaim --gc-type --policy \
			--alloc --ssr-type -n --count --max-search --search --engine --now \
			--step-clock --step-types --last-victim --no-fg-shortcut --strict --segments --selections \
			--segs-per-sec --seed --only --until-free --dry-run --batch-blocks --progress \
			--progress-fd -v --verbose -h --help -V --version ;;
		*) [ "$cmd" = bench ] || _zf2fs_files ;;
		esac ;;
	esac
}

_zf2fs_inject()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	--sb|--cp|--nat|--sit) _zf2fs_reply 0 1 2; return ;;
	--dots) _zf2fs_reply 1 2; return ;;
	--fuzz) _zf2fs_reply zeroes ones firstbit middlebit lastbit add sub random; return ;;
	-d) _zf2fs_reply 0 1 2 3 4; return ;;
	--mb|--val|--str|--idx|--nid|--blk|--seed|--path|--name|--slot|--dblk|--lookup|--bmap|\
	--hash) return ;;
	esac
	case $cur in
	-*) _zf2fs_reply --sb --cp --nat --sit --ssa --node --dent --mb --val --str --idx --nid \
		--blk --dots --fuzz --seed --path --name --slot --dblk --get --where --list \
		--lookup --bmap --hash --dry-run -d -V -h --version --help ;;
	*) _zf2fs_files ;;
	esac
}

_zf2fs_label()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	COMPREPLY=()
	case $cur in
	-*) _zf2fs_reply -h -V --quiet --help --version ;;
	*) [ "$COMP_CWORD" -eq 1 ] && _zf2fs_files ;;
	esac
}

_zf2fs_sload()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	-f|--from) compopt -o dirnames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return ;;
	-p|--product-out|--target-dir) compopt -o dirnames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
	-C|--fs-config|-s|--file-contexts) _zf2fs_files; return ;;
	-d|--debug) _zf2fs_reply 0 1 2 3 4; return ;;
	-a|--compress-algorithm) _zf2fs_reply lzo lz4 zstd lzo-rle; return ;;
	-L|--cluster-log) _zf2fs_reply 2 3 4 5 6 7 8; return ;;
	-m|--min-saved-blocks) _zf2fs_reply 1 2 3; return ;;
	-t|--mount-point|-T|--timestamp|-x|--compress-except|-i|--compress-only|--progress-fd)
		return ;;
	esac
	case $cur in
	-*) _zf2fs_reply -f -t -T -P -C -s -p -S -c -a -L -x -i -m -r -d -V -h --from \
		--mount-point --target-dir --timestamp --preserve-owner --fs-config --file-contexts \
		--product-out --sparse --compress --compress-algorithm --cluster-log \
		--compress-except --compress-only --min-saved-blocks --release-blocks --debug \
		--progress --progress-fd --version --help ;;
	*) _zf2fs_files ;;
	esac
}

_zf2fs_defrag()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	-d|--debug) _zf2fs_reply 0 1 2 3; return ;;
	-s|--start|-l|--length|-t|--target|--file|--batch-blocks|--progress-fd) return ;;
	esac
	case $cur in
	-*) _zf2fs_reply -s -l -t -i -S -H -d -V -h --start --length --target --left --sparse \
		--debug --file --batch-blocks --progress --progress-fd --version --help ;;
	*) _zf2fs_files ;;
	esac
}

_zf2fs_resize()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	-d|--debug) _zf2fs_reply 0 1 2 3; return ;;
	-t|--target|-o|--overprovision|--progress-fd) return ;;
	-g) _zf2fs_reply android; return ;;
	esac
	case $cur in
	-*) _zf2fs_reply -t -s -o -i -f -F -g -H -d -V -h --target --safe --overprovision \
		--large-nat-bitmap --debug --progress --progress-fd --version --help ;;
	*) _zf2fs_files ;;
	esac
}

# f2fs_io: the command, then the fixed words of its arguments, else file names.
_zf2fs_io()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]}
	local cmds='fsync fdatasync set_verity getflags setflags clearflags shutdown pinfile
		fadvise fallocate erase write write_advice read randread fragread fiemap gc_urgent
		defrag_file copy get_cblocks release_cblocks reserve_cblocks get_coption
		set_coption decompress compress get_filename_encrypt_mode rename gc checkpoint
		precache_extents move_range gc_range listxattr setxattr removexattr lseek
		get_advise get_fadvise ioprio ftruncate test_create_perf test_lookup_perf freeze
		thaw'
	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		case $cur in
		-*) _zf2fs_reply -h -V --help --version ;;
		*) _zf2fs_reply help $cmds ;;
		esac
		return
	fi
	case $cmd:$COMP_CWORD in
	help:2) _zf2fs_reply $cmds ;;
	pinfile:2) _zf2fs_reply get set unset ;;
	setflags:2) _zf2fs_reply casefold compression nocompression immutable nocow ;;
	clearflags:2) _zf2fs_reply compression nocompression immutable nocow ;;
	shutdown:2) _zf2fs_reply 0 1 2 3 4 ;;
	gc:2|gc_range:2) _zf2fs_reply 0 1 ;;
	fadvise:2) _zf2fs_reply willneed dontneed noreuse sequential random ;;
	lseek:2) _zf2fs_reply set cur end data hole ;;
	ioprio:2) _zf2fs_reply ioprio_write ;;
	set_coption:2) _zf2fs_reply 0 1 2 3 ;;
	set_coption:3) _zf2fs_reply 2 3 4 5 6 7 8 ;;
	gc_urgent:2) [ -d /sys/fs/f2fs ] && _zf2fs_reply $(ls /sys/fs/f2fs) ;;
	gc_urgent:3) _zf2fs_reply start end run ;;
	write:5|write_advice:5) _zf2fs_reply zero inc_num rand ;;
	write:6|write_advice:6) _zf2fs_reply buffered dio dsync osync atomic_commit atomic_abort \
		atomic_rcommit atomic_rabort ;;
	write_advice:7) _zf2fs_reply hot cold ;;
	read:5) _zf2fs_reply buffered dontcache dio mmap mlock madvise fadvise ;;
	randread:4) _zf2fs_reply buffered dio mmap ;;
	*) _zf2fs_files ;;
	esac
}

_zf2fs_fibmap()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	COMPREPLY=()
	case $cur in
	-*) _zf2fs_reply -h -V --help --version ;;
	*) [ "$COMP_CWORD" -eq 1 ] && _zf2fs_files ;;
	esac
}

_zf2fs_metadump()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	--progress-fd) return ;;
	esac
	case $cur in
	-*) _zf2fs_reply -o -g -q -h -V --keep-names --progress --progress-fd --quiet --help \
		--version ;;
	*) _zf2fs_files ;;
	esac
}

_zf2fs_mdrestore()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	--progress-fd) return ;;
	esac
	case $cur in
	-*) _zf2fs_reply -i -g -q -h -V --info --progress --progress-fd --quiet --help --version ;;
	*) _zf2fs_files ;;
	esac
}

complete -F _zf2fs_mkfs mkfs.f2fs
complete -F _zf2fs_fsck fsck.f2fs
complete -F _zf2fs_dump dump.f2fs
complete -F _zf2fs_gc gc.f2fs
complete -F _zf2fs_inject inject.f2fs
complete -F _zf2fs_label f2fslabel
complete -F _zf2fs_sload sload.f2fs
complete -F _zf2fs_defrag defrag.f2fs
complete -F _zf2fs_resize resize.f2fs
complete -F _zf2fs_io f2fs_io
complete -F _zf2fs_fibmap fibmap.f2fs
complete -F _zf2fs_metadump f2fs_metadump
complete -F _zf2fs_mdrestore f2fs_mdrestore
