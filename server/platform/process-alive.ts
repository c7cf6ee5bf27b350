// Whether a process id names a running process, for files and folders that record their owner's id.

/** True while `pid` runs; EPERM counts as running (a process of another user has that id). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
