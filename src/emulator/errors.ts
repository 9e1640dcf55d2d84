/** An error the emulated service answers with: HTTP status plus the `{code, message}` body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
    readonly code: number = status,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code?: number): ApiError => new ApiError(400, message, code);
export const forbidden = (message: string, code?: number): ApiError => new ApiError(403, message, code);
export const notFound = (message: string): ApiError => new ApiError(404, message);
export const requestTimeout = (message: string): ApiError => new ApiError(408, message);
export const conflict = (message: string): ApiError => new ApiError(409, message);
export const payloadTooLarge = (message: string): ApiError => new ApiError(413, message);
