import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../../infra/project-root.js';

describe('the SDK README', () => {
  it('shows the example that the type check covers (sdk/examples/quick-start.ts), word for word', () => {
    const readme = readFileSync(projectPath('sdk/README.md'), 'utf8');
    const example = readFileSync(projectPath('sdk/examples/quick-start.ts'), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});
