/**
 * The base of every layer's errors (kit/store, which imports nothing of the kit, mirrors it in
 * WorkspaceError). The message names the bad value and what to do, in the words of the interface used;
 * `userFacing` tells the CLI to print it as one line without a stack; `name` is the class's own name, so
 * subclasses need not repeat it; `cause` keeps the underlying error.
 */
export class KitError extends Error {
  readonly userFacing = true;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
