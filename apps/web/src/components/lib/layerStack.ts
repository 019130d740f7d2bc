// Open modal layers, innermost last: only the top one answers Escape and traps focus.
const stack: string[] = [];

export function pushLayer(id: string): () => void {
  stack.push(id);
  return () => {
    const index = stack.lastIndexOf(id);
    if (index !== -1) stack.splice(index, 1);
  };
}

export function isTopLayer(id: string): boolean {
  return stack[stack.length - 1] === id;
}
