# The site's one log format for shell scripts (sourced: `. scripts/log.sh`): the lines of config/logs.py,
#   2026-11-21T14:03:07.412-03:00 INFO serve[4121] truco.serve [-] message
# or, with DJANGO_LOG_FORMAT=json, the same fields as one JSON object per line; the time in the site's
# zone (TZ_NAME) as the Python processes write it. Pure bash (no process
# is started for a line: EPOCHREALTIME and printf's %(...)T), so a script may log freely.
#
#   log LEVEL MESSAGE...              one line on standard error, from LOG_PROCESS[$$] (serve) as LOG_LOGGER
#   relay LEVEL PROCESS PID LOGGER    standard input to standard output line by line: a line already in
#                                     the format goes through as is; any other (a program's banner, a
#                                     warning printed before its logging was set up, a command's own
#                                     output) is written in the format, at LEVEL, from PROCESS[PID] as LOGGER
#
# Passing through unchanged is what keeps the key redaction (config/log_keys.py) in force: a line in the
# format was written by the site's formatters, which redacted it.

LOG_PROCESS=${LOG_PROCESS:-serve}
LOG_LOGGER=${LOG_LOGGER:-truco.serve}
_LOG_JSON=0
if [[ ${DJANGO_LOG_FORMAT:-text} == [Jj][Ss][Oo][Nn] ]]; then _LOG_JSON=1; fi
# a line the site's formatters wrote (text: time, level, process[pid], logger, [request]; or a JSON object)
_LOG_LINE='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}[+-][0-9]{2}:[0-9]{2} (DEBUG|INFO|WARNING|ERROR|CRITICAL) [^ ]+\[[0-9]+\] [^ ]+ \['
_LOG_JSON_LINE='^\{"time": "'

_log_json_string() {  # _log_json_string TEXT: TEXT as a JSON string, into REPLY
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\t'/\\t}
  s=${s//$'\r'/}
  s=${s//$'\e'/\\u001b}
  s=${s//[[:cntrl:]]/}
  REPLY="\"$s\""
}

_log_line() {  # _log_line LEVEL PROCESS PID LOGGER MESSAGE: the line, into REPLY
  local level=$1 process=$2 pid=$3 logger=$4 message=$5 now seconds micros stamp zone
  # the site's time zone, as Django sets it for the Python processes (settings.TIME_ZONE: TZ_NAME)
  local TZ=${TZ_NAME:-America/Sao_Paulo}
  export TZ
  now=${EPOCHREALTIME/,/.}
  seconds=${now%.*} micros=${now#*.}
  printf -v stamp '%(%Y-%m-%dT%H:%M:%S)T' "$seconds"
  printf -v zone '%(%z)T' "$seconds"
  stamp+=".${micros:0:3}${zone:0:3}:${zone:3:2}"
  message=${message//$'\r'/}
  if ((_LOG_JSON)); then
    _log_json_string "$message"
    local text=$REPLY
    _log_json_string "$logger"
    local name=$REPLY
    _log_json_string "$process"
    REPLY="{\"time\": \"$stamp\", \"level\": \"$level\", \"process\": $REPLY, \"pid\": $pid, \"logger\": $name, \"request_id\": \"-\", \"request\": \"-\", \"message\": $text}"
  else
    REPLY="$stamp $level $process[$pid] $logger [-] $message"
  fi
}

log() {  # log LEVEL MESSAGE...
  local level=$1
  shift
  _log_line "$level" "$LOG_PROCESS" "$$" "$LOG_LOGGER" "$*"
  printf '%s\n' "$REPLY" >&2
}

relay() {  # relay LEVEL PROCESS PID LOGGER
  local level=$1 process=$2 pid=$3 logger=$4 line
  while IFS= read -r line || [[ -n $line ]]; do
    if [[ $line =~ $_LOG_LINE || $line =~ $_LOG_JSON_LINE ]]; then
      printf '%s\n' "$line"
    elif [[ -n ${line//[[:space:]]/} ]]; then  # a blank line (a banner's spacing) says nothing
      _log_line "$level" "$process" "$pid" "$logger" "$line"
      printf '%s\n' "$REPLY"
    fi
  done
}
