import { describe, expect, test } from 'bun:test';
import { serializeProps } from '../../src/components/Island.tsx';

describe('island props', () => {
  test('cannot close their script element or open a comment', () => {
    const json = serializeProps({ text: '</script><script>alert(1)</script><!-- & \u2028' });
    expect(json).not.toContain('<');
    expect(json).not.toContain('>');
    expect(JSON.parse(json).text).toBe('</script><script>alert(1)</script><!-- & \u2028');
  });
});
