import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isNodeProcessAlive } from './process-alive';

/** DATA_DIR/service.pid: a second service on the folder is refused; a file left by a dead service is taken over. */
export class ServiceOwnership {
  private constructor(private readonly file: string) {}

  static claim(dataDir: string): ServiceOwnership {
    const file = join(dataDir, 'service.pid');
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o644 });
        return new ServiceOwnership(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isNodeProcessAlive(holder)) {
        throw new Error(
          `another service (pid ${holder}) is running on ${dataDir}; stop it first, or give this one its own DATA_DIR`,
        );
      }
      unlinkSync(file);
    }
    throw new Error(`could not claim ${file}`);
  }

  release(): void {
    try {
      if (Number(readFileSync(this.file, 'utf8').trim()) === process.pid) unlinkSync(this.file);
    } catch {
      // Already gone.
    }
  }
}
