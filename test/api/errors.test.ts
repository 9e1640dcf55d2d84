import {
  VideoApiError,
  VideoAuthError,
  VideoConflictError,
  VideoNotFoundError,
  VideoRateLimitError,
  VideoValidationError,
  errorFromResponse,
  redact,
} from '../../src/api/errors';

const base = { method: 'POST', path: '/v2/project/123/render' };

describe('errorFromResponse', () => {
  test('JSON {code, message}', () => {
    const error = errorFromResponse({ ...base, status: 400, body: '{"code":400,"message":"Invalid DTMF Digits"}' });
    expect(error).toBeInstanceOf(VideoApiError);
    expect(error.status).toBe(400);
    expect(error.code).toBe(400);
    expect(error.method).toBe('POST');
    expect(error.path).toBe('/v2/project/123/render');
    expect(error.message).toBe('POST /v2/project/123/render failed with 400: Invalid DTMF Digits');
    expect(error.name).toBe('VideoApiError');
  });

  test('composer code is explained when the message is missing', () => {
    const error = errorFromResponse({ ...base, status: 400, body: '{"code":50002}' });
    expect(error.code).toBe(50002);
    expect(error.message).toContain('URL unreachable');
  });

  test('composer code is named next to the server message', () => {
    const error = errorFromResponse({ ...base, status: 403, body: '{"code":10012,"message":"Token rejected"}' });
    expect(error).toBeInstanceOf(VideoAuthError);
    expect(error.message).toContain('Token rejected (code 10012: expired token)');
  });

  test('XML errorPayload', () => {
    const body =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><errorPayload><code>-1</code><message>Issuer not found</message><description>Issuer not found</description></errorPayload>';
    const error = errorFromResponse({ ...base, status: 403, body, contentType: 'application/xml' });
    expect(error).toBeInstanceOf(VideoAuthError);
    expect(error.code).toBe(-1);
    expect(error.message).toBe('POST /v2/project/123/render failed with 403: Issuer not found (code -1)');
  });

  test('HTML page becomes its title', () => {
    const body = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>h1{}</style></head><body><h1>Bad Gateway</h1></body></html>';
    const error = errorFromResponse({ ...base, status: 502, body });
    expect(error.message).toBe('POST /v2/project/123/render failed with 502: 502 Bad Gateway');
    expect(error.code).toBeUndefined();
  });

  test('empty body uses the meaning of the status', () => {
    const error = errorFromResponse({ ...base, method: 'GET', path: '/v2/project/1/archive/x', status: 404, body: '' });
    expect(error).toBeInstanceOf(VideoNotFoundError);
    expect(error.message).toBe('GET /v2/project/1/archive/x failed with 404: not found (or not connected, or already stopped)');
  });

  test('plain text body', () => {
    expect(errorFromResponse({ ...base, status: 500, body: 'upstream\n  exploded' }).message).toContain(': upstream exploded');
  });

  test('409 and 429 classes, Retry-After kept', () => {
    expect(errorFromResponse({ ...base, status: 409, body: '{"message":"Conflict"}' })).toBeInstanceOf(VideoConflictError);
    const limited = errorFromResponse({ ...base, status: 429, body: '', retryAfterMs: 2000 });
    expect(limited).toBeInstanceOf(VideoRateLimitError);
    expect(limited.retryAfterMs).toBe(2000);
  });

  test('secrets sent with the request are scrubbed from message and raw', () => {
    const body = JSON.stringify({
      message: 'bad config {"secretKey":"wJalrXUtnFEMI","accessKey":"AKIAEXAMPLE"} for token T0KEN-abcdef',
      echo: { type: 's3', config: { accessKey: 'AKIAEXAMPLE', secretKey: 'wJalrXUtnFEMI', bucket: 'b' } },
    });
    const error = errorFromResponse({ ...base, method: 'PUT', status: 400, body, secrets: ['T0KEN-abcdef'] });
    for (const text of [error.message, error.raw ?? '', JSON.stringify(error)]) {
      expect(text).not.toContain('wJalrXUtnFEMI');
      expect(text).not.toContain('AKIAEXAMPLE');
      expect(text).not.toContain('T0KEN-abcdef');
    }
    expect(error.raw).toContain('"bucket":"b"');
  });

  test('raw is truncated', () => {
    const error = errorFromResponse({ ...base, status: 500, body: 'x'.repeat(10_000) });
    expect(error.raw!.length).toBeLessThanOrEqual(2000);
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('redact', () => {
  test('JSON fields, XML fields and listed values', () => {
    expect(redact('{"password": "p\\"w", "user":"u"}')).toBe('{"password": "[redacted]", "user":"u"}');
    expect(redact('<accountKey>abc</accountKey>')).toBe('<accountKey>[redacted]</accountKey>');
    expect(redact('key=supersecret', ['supersecret'])).toBe('key=[redacted]');
  });
});

describe('VideoValidationError', () => {
  test('has field, no status, readable message', () => {
    const error = new VideoValidationError('name', 'must be at most 255 characters. Example: "Weekly"');
    expect(error).toBeInstanceOf(VideoApiError);
    expect(error.status).toBeUndefined();
    expect(error.field).toBe('name');
    expect(error.name).toBe('VideoValidationError');
    expect(error.message).toBe('name: must be at most 255 characters. Example: "Weekly"');
  });
});
