import type { Repository } from '../api/types';

/** Repositories by name; `any` adds an "all repositories" choice. */
export function RepoSelect({ repos, value, onChange, any = false, label = 'repository' }: { repos: Repository[]; value: string; onChange: (name: string) => void; any?: boolean; label?: string }) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      {any && <option value="">all repositories</option>}
      {!any && !value && <option value="">choose a repository</option>}
      {repos.map((r) => (
        <option key={r.id} value={r.name}>
          {r.name}
        </option>
      ))}
    </select>
  );
}
