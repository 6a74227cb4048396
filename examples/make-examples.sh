#!/usr/bin/env bash
# Rebuilds examples/photos from the wallpapers of Debian's mate-backgrounds package.
# Needs: apt-get install mate-backgrounds imagemagick libimage-exiftool-perl webp
# The result is committed; this script documents where every photo comes from.
set -euo pipefail
cd "$(dirname "$0")"
src=/usr/share/backgrounds/mate
out=photos
rm -rf "$out"
mkdir -p "$out/Nature/Fleurs" "$out/Abstract" "$out/Café"

# jpeg SOURCE DEST [extra convert options...]: long edge at most 1400 px, quality 80, no metadata.
jpeg() {
  local from=$1 to=$2; shift 2
  convert "$from" -auto-orient "$@" -resize '1400x1400>' -strip -quality 80 "$to"
}

jpeg "$src/nature/LadyBird.jpg" "$out/Lady bird.jpg"
jpeg "$src/nature/Dune.jpg" "$out/Nature/Dune.jpg"
jpeg "$src/nature/Storm.jpg" "$out/Nature/Storm.jpg"
jpeg "$src/nature/GreenMeadow.jpg" "$out/Nature/Green meadow.jpg"
jpeg "$src/nature/RainDrops.jpg" "$out/Nature/Rain drops.jpg"
jpeg "$src/nature/Aqua.jpg" "$out/Nature/Aqua.jpg"
# Portrait and square crops.
jpeg "$src/nature/YellowFlower.jpg" "$out/Nature/Fleurs/Fleur jaune.jpg" -gravity center -crop 56%x100%+0+0 +repage
jpeg "$src/nature/FreshFlower.jpg" "$out/Nature/Fleurs/Fresh flower.jpg" -gravity center -crop 50%x100%+0+0 +repage
jpeg "$src/nature/TwoWings.jpg" "$out/Nature/Fleurs/Two wings.jpg" -gravity center -crop 62%x100%+0+0 +repage
# Stored turned a quarter to the left, with EXIF Orientation 6 ("turn right to view"): only
# upright if the generator applies the orientation.
jpeg "$src/nature/Garden.jpg" "$out/Nature/Fleurs/Garden (rotated).jpg" -gravity center -crop 60%x100%+0+0 +repage -rotate -90
exiftool -q -overwrite_original -Orientation=6 -n "$out/Nature/Fleurs/Garden (rotated).jpg"
# Stored turned a quarter to the right, with Orientation 8.
jpeg "$src/desktop/Float-into-MATE.png" "$out/Abstract/Float (rotated).jpg" -rotate 90
exiftool -q -overwrite_original -Orientation=8 -n "$out/Abstract/Float (rotated).jpg"
# A PNG, a WebP, a tall strip and a panorama (the abstract PNGs of the package are transparent,
# so the opaque desktop wallpapers are used for these).
convert "$src/desktop/Ubuntu-Mate-Warm-no-logo.png" -resize '1200x1200>' -strip "$out/Abstract/Warm waves.png"
convert "$src/desktop/Ubuntu-Mate-Cold-no-logo.png" -resize '1400x1400>' -strip png:- | cwebp -quiet -q 78 -o "$out/Abstract/Cold waves.webp" -- -
jpeg "$src/abstract/Elephants.jpg" "$out/Abstract/Elephants strip.jpg" -gravity center -crop 28%x100%+0+0 +repage
jpeg "$src/desktop/Ubuntu-Mate-Radioactive-no-logo.png" "$out/Abstract/Radioactive panorama.jpg" -gravity center -crop 100%x30%+0+0 +repage
jpeg "$src/nature/Wood.jpg" "$out/Café/Wood.jpg"
jpeg "$src/nature/Blinds.jpg" "$out/Café/Blinds.jpg" -gravity center -crop 45%x100%+0+0 +repage

# Captions, dates and an artist in EXIF, as a camera or a photo manager writes them.
exiftool -q -overwrite_original -ImageDescription="A ladybird climbs a blade of grass" \
  -Artist="MATE artwork team" -DateTimeOriginal="2015:06:21 09:14:00" "$out/Lady bird.jpg"
exiftool -q -overwrite_original -ImageDescription="Dune grass & the sea" -DateTimeOriginal="2014:08:02 18:30:00" "$out/Nature/Dune.jpg"
exiftool -q -overwrite_original -DateTimeOriginal="2014:09:11 16:05:00" "$out/Nature/Storm.jpg"
exiftool -q -overwrite_original -ImageDescription="Fleur jaune — a yellow flower" "$out/Nature/Fleurs/Fleur jaune.jpg"
du -sh "$out"
