import { PlainSpin } from './plain/spin';

/** Shown while a screen's code or data arrives (part of the first script: drawn without antd's runtime). */
export function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: '96px 0' }}>
      <PlainSpin size="large" />
    </div>
  );
}
