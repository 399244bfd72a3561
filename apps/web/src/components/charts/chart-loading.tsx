import { PlainSpin } from '../plain/spin';

/**
 * The place of a chart while echarts arrives, as tall as the chart will be. A spinner rather than a
 * skeleton: the radar chart is registered app-wide, so this is part of the first script, which
 * already has the spinner (drawn without antd's runtime).
 */
export function ChartLoading({ height = 320 }: { height?: number | string }) {
  return (
    <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height }}>
      <PlainSpin />
    </div>
  );
}
