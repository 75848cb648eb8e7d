/** `21.0 GiB`, `5 MiB`, `812 B`: as df -h and du -h would round it, with the unit spelled out. */
export function formatSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 || value >= 10 ? Math.floor(value) : value.toFixed(1)} ${units[unit]}`;
}
