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
  let sessionIds = [];
  let details = null;
  let detailsSupported = true;

  const selectedSession = () => $('emu-session').value;

  async function run(action, body, done) {
    const answer = await local.emulator(action, body);
    if (answer.ok === false) {
      report(`${action}: ${answer.error ?? 'failed'}`);
      return answer;
    }
    report(done(answer));
    await loadDetails();
    await refresh();
    return answer;
  }

  async function loadDetails() {
    const sessionId = selectedSession();
    if (!sessionId || !detailsSupported) return renderDetails();
    const answer = await local.session(sessionId);
    if (answer.status === 404 || answer.status === 405) detailsSupported = false;
    details = answer.ok === false ? null : answer;
    renderDetails();
  }

  function renderDetails() {
    const session = details?.session;
    const connections = (session?.connections ?? []).filter((c) => c.connected !== false);
    const streams = session?.streams ?? [];
    $('emu-connections').innerHTML = connections.length
      ? connections.map((c) => `<li><span class="mono" title="${escapeHtml(c.connectionId)}">${escapeHtml(shortId(c.connectionId))}</span><span class="muted">${escapeHtml(c.kind ?? '')}</span><button type="button" class="bk-btn bk-btn--small" data-remove-connection="${escapeHtml(c.connectionId)}" aria-label="Remove participant ${escapeHtml(c.connectionId)}">Remove</button></li>`).join('')
      : `<li class="muted">${detailsSupported ? 'Nobody connected' : 'Type a connection id to remove a participant'}</li>`;
    $('emu-remove-participant').hidden = detailsSupported;
    $('emu-streams').innerHTML = streams.length
      ? streams.map((s) => `<li><span class="mono" title="${escapeHtml(s.streamId)}">${escapeHtml(s.name || shortId(s.streamId))}</span><span class="muted">${escapeHtml(s.videoType ?? '')}</span><button type="button" class="bk-btn bk-btn--small" data-remove-stream="${escapeHtml(s.streamId)}" aria-label="Remove stream ${escapeHtml(s.name || s.streamId)}">Remove</button></li>`).join('')
      : '<li class="muted">No streams</li>';
    const archives = details?.archives ?? [];
    const archiveSelect = $('emu-archive');
    const previous = archiveSelect.value;
    archiveSelect.innerHTML = archives.length
      ? archives.map((a) => `<option value="${escapeHtml(a.id)}">${escapeHtml(`${a.name || shortId(a.id)} — ${a.status}`)}</option>`).join('')
      : '<option value="">No recordings in this session</option>';
    if (archives.some((a) => a.id === previous)) archiveSelect.value = previous;
    archiveSelect.hidden = !detailsSupported;
    $('emu-archive-id').hidden = detailsSupported;
  }

  function shortId(id) {
    return id.length > 18 ? `${id.slice(0, 8)}…${id.slice(-6)}` : id;
  }

  function renderSessions(ids) {
    const select = $('emu-session');
    const previous = select.value;
    select.innerHTML = ids.length ? ids.map((id) => `<option value="${escapeHtml(id)}">${escapeHtml(shortId(id))}</option>`).join('') : '<option value="">No sessions</option>';
    if (ids.includes(previous)) select.value = previous;
    if (select.value !== previous) loadDetails();
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

  $('emu-session').addEventListener('change', () => loadDetails());
  $('emu-new-session').addEventListener('click', () => run('create-session', {}, (a) => `Created session ${a.sessionId ?? ''}`.trim()));
  $('emu-add-participant').addEventListener('click', () => {
    if (!selectedSession()) return report('Pick a session first.');
    run('add-participant', { sessionId: selectedSession() }, (a) => `Participant ${a.connectionId ?? ''} joined`.replace('  ', ' '));
  });
  $('emu-add-stream').addEventListener('click', () => {
    if (!selectedSession()) return report('Pick a session first.');
    run('add-stream', { sessionId: selectedSession() }, (a) => `Stream ${a.streamId ?? ''} published`.replace('  ', ' '));
  });
  $('emu-connections').addEventListener('click', (event) => {
    const button = event.target.closest('[data-remove-connection]');
    if (button) run('remove-participant', { sessionId: selectedSession(), connectionId: button.dataset.removeConnection }, () => 'Participant left');
  });
  $('emu-remove-participant').addEventListener('submit', (event) => {
    event.preventDefault();
    run('remove-participant', { sessionId: selectedSession(), connectionId: $('emu-connection-id').value.trim() }, () => 'Participant left');
  });
  $('emu-streams').addEventListener('click', (event) => {
    const button = event.target.closest('[data-remove-stream]');
    if (button) run('remove-stream', { sessionId: selectedSession(), streamId: button.dataset.removeStream }, () => 'Stream removed');
  });
  document.querySelectorAll('[data-archive-status]').forEach((button) => {
    button.addEventListener('click', () => {
      const archiveId = detailsSupported ? $('emu-archive').value : $('emu-archive-id').value.trim();
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

  return {
    render(emulator) {
      if (!emulator) return;
      $('emu-now').textContent = formatEmulatorTime(emulator.now);
      $('emu-now').setAttribute('datetime', emulator.now ?? '');
      const ids = emulator.sessionIds ?? [];
      if (ids.join() !== sessionIds.join()) {
        sessionIds = ids;
        renderSessions(ids);
      } else if (!details && ids.length > 0 && detailsSupported) {
        loadDetails();
      }
    },
    loadDetails,
  };
}
