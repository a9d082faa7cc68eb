/** Thrown for any query the visibility store cannot run; the gRPC layer maps it to INVALID_ARGUMENT. */
export class VisibilityQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VisibilityQueryError';
  }
}
