import type { FormInstance } from 'antd';
import { useEffect } from 'react';

/**
 * Chooses the one option of a select for the person when there is exactly one (a domain, say), so
 * nobody has to open a list of one; with several, or once something is chosen, it does nothing.
 */
export function usePreselectOnly(
  form: FormInstance,
  field: string,
  ids: readonly number[] | undefined,
  active = true,
): void {
  const only = ids?.length === 1 ? ids[0] : undefined;
  useEffect(() => {
    if (!active || only === undefined) return;
    if (form.getFieldValue(field) === undefined || form.getFieldValue(field) === null)
      form.setFieldValue(field, only);
  }, [form, field, only, active]);
}
