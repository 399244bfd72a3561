export interface RadarIndicator {
  name: string;
  max: number;
}

export interface RadarSeries {
  name: string;
  values: number[];
}

export interface RadarChartProps {
  indicators: RadarIndicator[];
  series: RadarSeries[];
  /** CSS height of the chart area; defaults to 320 px */
  height?: number | string;
}
