/**
 * The emulator side panel: clock, session picker, participants and streams, recordings pushed
 * to failed/expired, fault injection. Every button is one `/local/emulator/<action>` call; the
 * poller then reports what changed into the channel, as it would in Slack.
 */
import { local } from './api.js';
import { escapeHtml } from './mrkdwn.js';

const $ = (id) => document.getElementById(id);

/** "2026-11-22T22:14:07.000Z" → "Nov 22, 22:14:07 UTC". */
export function formatEmulatorTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(date);
  return `${day}, ${date.toISOString().slice(11, 19)} UTC`;
}

export function createPanel({ refresh, report }) {
  /** The last `state.emulator`: sessionIds, now, and (when the server lists them) sessions and archives. */
  let emulator = { sessionIds: [], sessions: undefined, archives: undefined };

  const selectedSession = () => $('emu-session').value;

  async function run(action, body, done) {
    const answer = await local.emulator(action, body);
    report(answer.ok === false ? `${action}: ${answer.error ?? 'failed'}` : done(answer));
    if (answer.ok !== false) await refresh();
    return answer;
  }

  function shortId(id) {
    return id.length > 18 ? `${id.slice(0, 8)}…${id.slice(-6)}` : id;
  }

  function renderSessions() {
    const select = $('emu-session');
    const previous = select.value;
    const ids = emulator.sessionIds ?? [];
    const html = ids.length
      ? ids.map((id, i) => `<option value="${escapeHtml(id)}">${escapeHtml(`Session ${i + 1} · ${shortId(id)}`)}</option>`).join('')
      : '<option value="">No sessions</option>';
    if (select.innerHTML !== html) select.innerHTML = html;
    if (ids.includes(previous)) select.value = previous;
  }

  function renderParticipants() {
    const listed = Array.isArray(emulator.sessions);
    const session = (emulator.sessions ?? []).find((s) => s.id === selectedSession());
    const participants = session?.participants ?? [];
    $('emu-connections').innerHTML = participants.length
      ? participants
          .map(
            (p) =>
              `<li><span class="panel-name" title="${escapeHtml(p.connectionId)}">${escapeHtml(p.name)}</span><span class="muted">${p.streams.length} ${p.streams.length === 1 ? 'stream' : 'streams'}</span><button type="button" class="bk-btn bk-btn--small" data-remove-connection="${escapeHtml(p.connectionId)}" aria-label="Remove participant ${escapeHtml(p.name)}">Remove</button></li>`,
          )
          .join('')
      : `<li class="muted">${listed ? 'Nobody connected' : 'Type a connection id to remove a participant'}</li>`;
    $('emu-remove-participant').hidden = listed;
    const streams = participants.flatMap((p) => p.streams.map((stream) => ({ ...stream, owner: p.name })));
    $('emu-streams').innerHTML = streams.length
      ? streams
          .map(
            (st) =>
              `<li><span class="panel-name" title="${escapeHtml(st.streamId)}">${escapeHtml(st.name || shortId(st.streamId))}</span><span class="muted">${escapeHtml(st.videoType)}${st.muted ? ' · muted' : ''}</span><button type="button" class="bk-btn bk-btn--small" data-remove-stream="${escapeHtml(st.streamId)}" aria-label="Remove stream ${escapeHtml(st.name || st.streamId)} of ${escapeHtml(st.owner)}">Remove</button></li>`,
          )
          .join('')
      : '<li class="muted">No streams</li>';
  }

  function renderArchives() {
    const listed = Array.isArray(emulator.archives);
    const select = $('emu-archive');
    const previous = select.value;
    const archives = (emulator.archives ?? []).filter((a) => !selectedSession() || a.sessionId === selectedSession());
    const html = archives.length
      ? archives.map((a) => `<option value="${escapeHtml(a.id)}">${escapeHtml(`${a.name || shortId(a.id)} — ${a.status}`)}</option>`).join('')
      : '<option value="">No recordings in this session</option>';
    if (select.innerHTML !== html) select.innerHTML = html;
    if (archives.some((a) => a.id === previous)) select.value = previous;
    select.hidden = !listed;
    $('emu-archive-label').hidden = !listed;
    $('emu-archive-id').hidden = listed;
  }

  function render() {
    $('emu-external').hidden = emulator.embedded !== false;
    $('emu-now').textContent = formatEmulatorTime(emulator.now);
    $('emu-now').setAttribute('datetime', emulator.now ?? '');
    renderSessions();
    renderParticipants();
    renderArchives();
  }

  document.querySelectorAll('[data-advance]').forEach((button) => {
    button.addEventListener('click', () => {
      const seconds = Number(button.dataset.advance);
      run('advance', { seconds }, () => `Advanced ${button.textContent.replace('+', '').trim()}`);
    });
  });

  $('emu-advance').addEventListener('submit', (event) => {
    event.preventDefault();
    const seconds = Number($('emu-advance-seconds').value);
    if (!Number.isFinite(seconds) || seconds <= 0) return report('Type a number of seconds above 0.');
    run('advance', { seconds }, () => `Advanced ${seconds} s`);
  });

  $('emu-session').addEventListener('change', () => {
    renderParticipants();
    renderArchives();
  });
  $('emu-new-session').addEventListener('click', () => run('create-session', {}, (a) => `Created session ${a.sessionId ?? ''}`.trim()));
  $('emu-add-participant').addEventListener('click', () => {
    if (!selectedSession()) return report('Pick a session first.');
    run('add-participant', { sessionId: selectedSession() }, () => 'A participant joined');
  });
  $('emu-add-stream').addEventListener('click', () => {
    if (!selectedSession()) return report('Pick a session first.');
    const videoType = $('emu-stream-type').value;
    run('add-stream', { sessionId: selectedSession(), videoType }, () => `A ${videoType} stream was published`);
  });
  $('emu-connections').addEventListener('click', (event) => {
    const button = event.target.closest('[data-remove-connection]');
    if (button) run('remove-participant', { sessionId: selectedSession(), connectionId: button.dataset.removeConnection }, () => 'The participant left');
  });
  $('emu-remove-participant').addEventListener('submit', (event) => {
    event.preventDefault();
    run('remove-participant', { sessionId: selectedSession(), connectionId: $('emu-connection-id').value.trim() }, () => 'The participant left');
  });
  $('emu-streams').addEventListener('click', (event) => {
    const button = event.target.closest('[data-remove-stream]');
    if (button) run('remove-stream', { sessionId: selectedSession(), streamId: button.dataset.removeStream }, () => 'The stream was unpublished');
  });
  document.querySelectorAll('[data-archive-status]').forEach((button) => {
    button.addEventListener('click', () => {
      const archiveId = Array.isArray(emulator.archives) ? $('emu-archive').value : $('emu-archive-id').value.trim();
      if (!archiveId) return report('Pick a recording first.');
      const status = button.dataset.archiveStatus;
      run('archive-state', { archiveId, status }, () => `Recording marked ${status}`);
    });
  });
  $('emu-fault').addEventListener('submit', (event) => {
    event.preventDefault();
    const kind = $('emu-fault-kind').value;
    const fault = {
      path: $('emu-fault-path').value.trim(),
      kind,
      count: Number($('emu-fault-count').value) || 1,
      ...(kind === 'status' ? { status: Number($('emu-fault-status').value) || 500 } : {}),
      ...($('emu-fault-method').value ? { method: $('emu-fault-method').value } : {}),
    };
    run('fault', fault, () => `Fault armed on ${fault.path} (${fault.count}×)`);
  });

  $('emu-clear-faults').addEventListener('click', () => run('clear-faults', {}, () => 'No fault armed'));

  return {
    render(next) {
      if (!next) return;
      emulator = next;
      render();
    },
    /** The clock alone moved (an SSE `emulator` change). */
    setNow(now) {
      emulator = { ...emulator, now };
      $('emu-now').textContent = formatEmulatorTime(now);
    },
  };
}
