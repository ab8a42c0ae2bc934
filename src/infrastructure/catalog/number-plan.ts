export class NumberPlan {
  private readonly owners = new Map<string, number>();
  private longestPrefix = 0;

  add(prefix: string, operatorId: number): void {
    this.owners.set(prefix, operatorId);
    this.longestPrefix = Math.max(this.longestPrefix, prefix.length);
  }

  ownerOf(nationalNumber: string): number | null {
    for (let length = Math.min(this.longestPrefix, nationalNumber.length); length > 0; length--) {
      const owner = this.owners.get(nationalNumber.slice(0, length));
      if (owner !== undefined) return owner;
    }
    return null;
  }
}
