/** Bad input to a tool, said in one sentence: the server answers it as a tool error (isError), never a crash. */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}
