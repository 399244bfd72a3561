export interface LineSeries {
  name: string;
  values: number[];
}

export interface LineChartProps {
  /** x-axis labels, e.g. dates */
  categories: string[];
  series: LineSeries[];
  /** CSS height of the chart area; defaults to 320 px */
  height?: number | string;
}
